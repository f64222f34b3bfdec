export { createPageComponent } from './create.ts';
export { updatePageComponent } from './update.ts';
export { removePageComponent } from './remove.ts';
export { listPageComponents } from './list.ts';
export * from './schemas.ts';
