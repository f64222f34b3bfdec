export { createNotificationChannel } from './create.ts';
export { updateNotificationChannel } from './update.ts';
export { removeNotificationChannel } from './remove.ts';
export { getNotificationChannel } from './get.ts';
export { listNotificationChannels } from './list.ts';
export { sendTestNotification } from './send-test.ts';
export * from './schemas.ts';
export { listChannelsForMonitor } from './for-monitor.ts';
