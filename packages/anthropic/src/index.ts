// Public surface of @a3s-lab/code-anthropic. Exports are listed by name.
export {};
