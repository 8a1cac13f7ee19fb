import type { ActivityEvent } from '../../shared/app-api';
import { formatDate, formatRelative, formatTime } from '../format';
import { strings } from '../strings';

type EventObject = ActivityEvent['objects'][number];

/**
 * An event as a sentence built from its parsed parts: text nodes only, never markup. Objects
 * the window can show (a workspace, folder or file with an id) become buttons when `onOpen`
 * is given.
 */
export function EventLine({
  event,
  onOpen,
  compact = false,
  clock = false,
}: {
  event: ActivityEvent;
  onOpen?: (object: EventObject) => void;
  /** Inside an opened burst: the item alone (the burst's line says who did what, and where). */
  compact?: boolean;
  /** Under a heading of an earlier day: the time of day ("yesterday" would repeat the heading, or contradict it). */
  clock?: boolean;
}) {
  const [first, ...rest] = event.objects;
  const object = (o: EventObject, i: number) => {
    const name =
      onOpen && o.id != null && o.kind !== 'unknown' ? (
        <button
          type="button"
          className="link-button"
          aria-label={strings.activity.open(o.label, o.text)}
          onClick={() => onOpen(o)}
        >
          {o.text}
        </button>
      ) : (
        <span className="object-name">{o.text}</span>
      );
    return (
      <span className="object" key={i}>
        {name}
        {o.label && <span className="muted"> {o.label}</span>}
      </span>
    );
  };
  const fallback = !event.subject && !event.predicate && event.objects.length === 0;
  const time = (
    <time className="muted" dateTime={event.at} title={formatDate(event.at)}>
      {clock ? formatTime(event.at) : formatRelative(event.at)}
    </time>
  );
  if (compact && first && !fallback)
    return (
      <p className="event-line member">
        {object(first, 0)}
        {event.complement && <> {event.complement}</>} {time}
      </p>
    );
  return (
    <p className="event-line">
      {fallback ? (
        event.text
      ) : (
        <>
          <strong>{event.subject}</strong> {event.predicate} {first && object(first, 0)}
          {event.complement && <> {event.complement}</>}
          {rest.map((o, i) => (
            <span key={i + 1}>
              {' · '}
              {object(o, i + 1)}
            </span>
          ))}
        </>
      )}{' '}
      {time}
    </p>
  );
}
