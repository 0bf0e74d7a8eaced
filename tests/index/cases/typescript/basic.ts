import type { Request, Response } from "express";
import { Router } from "express";
import * as db from "../db";
import config = require("./config.json");
export type { Session } from "./session";

/** Identifier of a stored user. */
export type UserId = string & { readonly brand: unique symbol };

export type Handler<T = unknown> = (req: Request, res: Response) => Promise<T>;

/** A user as stored in the database. */
export interface User extends db.Record, Timestamps<Date> {
  id: UserId;
  name: string;
  roles: Role[];
  /** Whether the user may act as `role`. */
  can(role: Role): boolean;
}

interface Timestamps<D> {
  created: D;
  updated?: D;
}

/** Access levels. */
export enum Role {
  Reader = "reader",
  Writer = "writer",
  /** Full access. */
  Admin = "admin",
}

export const enum Limits {
  MaxNameLength = 64,
}

export const DEFAULT_ROLE: Role = Role.Reader;
export const ROUTES = { users: "/users", login: "/login" } as const;

/** Parse a user id, or throw. */
export function parseUserId(raw: string): UserId {
  if (!raw.trim()) {
    throw new ValidationError("empty id");
  }
  return raw as UserId;
}

export function findUser(id: UserId): Promise<User | undefined>;
export function findUser(name: string, exact: boolean): Promise<User | undefined>;
export async function findUser(key: string, exact = true): Promise<User | undefined> {
  const rows = await db.query<User>("select * from users where id = ?", [key]);
  return rows.find((row) => exact ? row.id === key : row.name.includes(key));
}

/** Route handler listing users. */
export const listUsers: Handler<User[]> = async (req, res) => {
  const users = await db.all<User>("users");
  res.json(users satisfies User[]);
  return users;
};

export function isAdmin(user: User): user is User & { roles: [Role.Admin] } {
  return user.roles.includes(Role.Admin);
}

declare function audit(event: AuditEvent): void;

declare module "express" {
  interface Request {
    user?: User;
  }
}

/** Helpers for user names. */
export namespace Names {
  export const SEPARATOR = " ";
  export function full(user: User): string {
    return user.name.split(SEPARATOR).join(" ");
  }
}

namespace Internal.Cache {
  export let size = 0;
}

export const router = Router();
router.get(ROUTES.users, listUsers);
