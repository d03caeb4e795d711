export * from './config';
export * from './dependencies';
export * from './fatal';
export * from './logger';
export * from './shutdown';
export * from './health-server';
export * from './secret-box';
export * from './redis';
