import type { ActivityEvent } from '../../shared/app-api';
import { formatDate, formatRelative, formatTime } from '../format';
import { currentLanguage, strings } from '../strings';
import {
  compactParts,
  labelOf,
  namedParts,
  sentenceParts,
  type EventPart,
} from '../../shared/event-words';

type EventObject = ActivityEvent['objects'][number];

/**
 * An event as a sentence built from its parsed parts: text nodes only, never markup. Objects
 * the window can show (a workspace, folder or file with an id) become buttons when `onOpen`
 * is given. The sentence is the window's language's (event-words.ts); the people's data in it
 * (names, old names, emails, a comment) is marked `user-data`.
 */
export function EventLine({
  event,
  onOpen,
  compact = false,
  clock = false,
  inList = false,
}: {
  event: ActivityEvent;
  onOpen?: (object: EventObject) => void;
  /** Inside an opened burst: the item alone (the burst's line says who did what, and where). */
  compact?: boolean;
  /** Under a heading of an earlier day: the time of day ("yesterday" would repeat the heading, or contradict it). */
  clock?: boolean;
  /** A row of the feed, its one Tab stop: its buttons are reached by arrows (ActivityFeed). */
  inList?: boolean;
}) {
  const tr = currentLanguage();
  const object = (o: EventObject, i: number, labeled: boolean) => {
    const label = labelOf(tr, o);
    const name =
      onOpen && o.id != null && o.kind !== 'unknown' ? (
        <button
          type="button"
          className="link-button user-data"
          tabIndex={inList ? -1 : undefined}
          aria-label={strings.activity.open(label, o.text)}
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
        {labeled && o.label && <span className="muted"> {o.label}</span>}
      </span>
    );
  };
  const render = (parts: EventPart[]) =>
    parts.map((p, k) => {
      const o = p.type === 'object' ? event.objects[p.index] : undefined;
      if (p.type === 'object') return o ? object(o, k, !!p.labeled) : null;
      if (p.type === 'subject')
        return (
          <strong key={k} className="user-data">
            {p.text}
          </strong>
        );
      if (p.type === 'data')
        return (
          <span key={k} className="user-data">
            {p.text}
          </span>
        );
      return p.text;
    });
  const fallback = !event.subject && !event.predicate && event.objects.length === 0;
  const time = (
    <time className="muted" dateTime={event.at} title={formatDate(event.at)}>
      {clock ? formatTime(event.at) : formatRelative(event.at)}
    </time>
  );
  if (compact && event.objects.length > 0 && !fallback)
    return (
      <p className="event-line member">
        {render(compactParts(tr, event))} {time}
      </p>
    );
  return (
    <p className="event-line">
      {fallback ? (
        event.text
      ) : (
        <>
          {render(sentenceParts(tr, event))}
          {event.objects.slice(1).map((_, i) => (
            <span key={i + 1}>
              {' · '}
              {render(namedParts(tr, event, i + 1))}
            </span>
          ))}
        </>
      )}{' '}
      {time}
    </p>
  );
}
