export * from './error-code';
export * from './app-error';
export * from './http-exception.filter';
export * from './validation.pipe';
export * from './unsafe-input';
export * from './database-unavailable';
export * from './field-style';
export * from './dto-fields';
