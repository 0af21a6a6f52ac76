// Public surface of @a3s-lab/code-local. Exports are listed by name.
export {};
