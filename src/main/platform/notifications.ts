import { Notification } from 'electron';

/** A desktop notification; `onClick` runs when the person clicks it. False where unsupported. */
export function showNotification(
  notice: { title: string; body: string },
  onClick?: () => void,
): boolean {
  if (!Notification.isSupported()) return false;
  const n = new Notification({ title: notice.title, body: notice.body, silent: true });
  if (onClick) n.on('click', onClick);
  n.show();
  return true;
}
