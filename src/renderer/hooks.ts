import { useEffect, useRef } from 'react';
import type { EventName, EventOf } from '../shared/app-api';
import { useApi } from './context';

/** Subscribes to a pushed event for the component's lifetime; the latest listener is used. */
export function useEvent<E extends EventName>(event: E, listener: (data: EventOf<E>) => void) {
  const api = useApi();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => api.on(event, (data) => latest.current(data)), [api, event]);
}
