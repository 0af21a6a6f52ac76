// Public surface of @a3s-lab/code-ptc. Exports are listed by name.
export {};
