import React, { useState, useEffect } from "react";
import type { FC, ReactNode } from "react";
import { Button } from "./Button";
import styles from "./List.module.css";

/** Props of {@link List}. */
export interface ListProps<T> {
  items: T[];
  render: (item: T) => ReactNode;
  onSelect?: (item: T) => void;
}

type Status = "idle" | "loading";

/**
 * A selectable list.
 */
export function List<T extends { id: string }>({ items, render, onSelect }: ListProps<T>) {
  const [selected, setSelected] = useState<string | null>(null);
  useEffect(() => {
    onSelect?.(items.find((item) => item.id === selected)!);
  }, [selected]);
  return (
    <ul className={styles.list}>
      {items.map((item) => (
        <li key={item.id} onClick={() => setSelected(item.id)}>
          {render(item)}
        </li>
      ))}
    </ul>
  );
}

/** A header with a title. */
export const Header: FC<{ title: string }> = ({ title }) => <h1>{title}</h1>;

const Footer = ({ children }: { children: ReactNode }) => {
  const year = new Date().getFullYear();
  return <footer>{children} {year}</footer>;
};

export default class Page extends React.Component<PageProps, { status: Status }> {
  state = { status: "idle" as Status };

  handleClick = (event: React.MouseEvent<HTMLButtonElement>) => {
    this.setState({ status: "loading" });
  };

  render() {
    return (
      <Layout>
        <Header title={this.props.title} />
        <Button onClick={this.handleClick}>Load</Button>
        <Footer>{formatDate(Date.now())}</Footer>
      </Layout>
    );
  }
}

interface PageProps {
  title: string;
}
