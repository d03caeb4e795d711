export * from './secret-rules';
export * from './secret-masker';
