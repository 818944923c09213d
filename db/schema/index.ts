export * from './accounts.ts';
export * from './catalogue.ts';
export * from './desk.ts';
export * from './mail.ts';
export * from './messaging.ts';
export * from './orders.ts';
export * from './payments.ts';
export * from './storefront.ts';
