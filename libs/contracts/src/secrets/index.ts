export * from './secret-rules';
export * from './secret-masker';
export * from './opened-secrets';
