// Public surface of @a3s-lab/code. Exports are listed by name.
export {};
