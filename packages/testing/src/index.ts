// Public surface of @a3s-lab/code-testing. Exports are listed by name.
export {};
