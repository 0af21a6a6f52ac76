// Public surface of @a3s-lab/code-openai. Exports are listed by name.
export {};
