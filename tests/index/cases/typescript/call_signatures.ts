// Context getters: interfaces with generic call signatures (overloads).
interface Getter<E extends Env> {
  <Key extends keyof E['Variables']>(key: Key): E['Variables'][Key]
  <Key extends keyof VarMap>(key: Key): VarMap[Key]
}

export function after(): void {}
