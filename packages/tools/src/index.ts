// Public surface of @a3s-lab/code-tools. Exports are listed by name.
export {};
