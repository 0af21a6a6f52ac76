// Public surface of @a3s-lab/code-config. Exports are listed by name.
export {};
