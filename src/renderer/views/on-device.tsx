import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, Cloud, CircleCheck, CircleDashed, Pin, RefreshCw, TriangleAlert } from 'lucide-react';
import type { OnDemandOp, OnDevice, ResultOf, RowMark } from '../../shared/app-api';
import { useAccount, useApi } from '../context';
import { useEvent } from '../hooks';
import type { SelectedItem } from '../navigation';
import { strings } from '../strings';

// Files on demand in Browse (docs/SYNC.md): where each item of the folder shown is on this device
// (read from its pair's journal by the backend), its badge, and the actions on an item (Download
// now, Always keep on this device, Free up space), answered once the engine did them.

type State = OnDevice['state'];

const ICONS = {
  full: CircleCheck,
  online: Cloud,
  partly: CircleDashed,
  pinned: Pin,
  // A row's other states (issue 42): each its own shape too.
  syncing: RefreshCw,
  excluded: Ban,
  problem: TriangleAlert,
} as const;

/** The badges' icons, once in the page (as ItemIcon's sprite: a row holds one small <use>). */
export function OnDeviceSprite() {
  return (
    <svg className="icon-sprite" aria-hidden="true" focusable="false">
      <defs>
        {Object.entries(ICONS).map(([state, Icon]) => (
          <symbol key={state} id={`ws-on-${state}`} viewBox="0 0 24 24">
            <Icon />
          </symbol>
        ))}
      </defs>
    </svg>
  );
}

/** The state in words: a folder partly here says how many of its files are online only. */
export function onDeviceWords(d: OnDevice): string {
  return d.state === 'partly'
    ? `${strings.files.onDevice.partly} (${strings.files.onDevice.count(d.online, d.files)})`
    : strings.files.onDevice[d.state];
}

/**
 * An item's state as a badge: an icon of its own shape per state (never a colour alone) and the
 * words, read by assistive technology and shown on hover; `text` shows the words beside it.
 */
export function OnDeviceBadge({ device, text = false }: { device: OnDevice; text?: boolean }) {
  const words = onDeviceWords(device);
  return (
    <span className={`on-device is-${device.state}`} title={words}>
      <svg width={14} height={14} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <use href={`#ws-on-${device.state}`} />
      </svg>
      <span className={text ? 'on-device-text' : 'visually-hidden'}>{words}</span>
    </span>
  );
}

/**
 * A row's badge in a synced workspace (issue 42): where it is on this device, or what keeps it
 * from being synced as recorded; a problem first, then a download under way, a folder left out.
 */
export type Badge = { state: Exclude<keyof typeof ICONS, 'full'> | 'synced'; words: string };

/** A row's badge: the icon of its state and its words (for assistive technology, on hover). */
export function RowBadge({ badge }: { badge: Badge }) {
  const icon = badge.state === 'synced' ? 'full' : badge.state;
  return (
    <span className={`on-device is-${icon}`} title={badge.words}>
      <svg width={14} height={14} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <use href={`#ws-on-${icon}`} />
      </svg>
      <span className="visually-hidden">{badge.words}</span>
    </span>
  );
}

type Marks = { marks: RowMark[]; excluded: number[]; here: 'synced' | 'excluded' | 'unknown' };

function badgeOf(
  item: { kind: string; id: number },
  d: OnDevice | undefined,
  m: Marks,
): Badge | undefined {
  const mark = (which: RowMark['mark']) =>
    m.marks.some(
      (r) => r.mark === which && r.id === item.id && (r.kind ?? item.kind) === item.kind,
    );
  const b = strings.browse.states;
  if (m.here === 'unknown') return undefined;
  if (m.here === 'excluded' || (item.kind === 'folder' && m.excluded.includes(item.id)))
    return { state: 'excluded', words: b.excluded };
  if (mark('problem')) return { state: 'problem', words: b.problem };
  if (mark('syncing')) return { state: 'syncing', words: b.syncing };
  if (!d) return { state: 'syncing', words: b.syncing };
  if (d.state === 'full') return { state: 'synced', words: b.synced };
  return { state: d.state, words: onDeviceWords(d) };
}

/** What may be done with an item in its state. */
export function offers(d: OnDevice) {
  return {
    download: d.online > 0,
    pinned: d.state === 'pinned',
    // Something here to free, and not kept here on purpose (unpinned first).
    free: d.online < d.files && d.state !== 'pinned',
  };
}

const deviceKey = (kind: string, id: number) => `${kind}-${id}`;

/**
 * The states of a folder's items synced here (none: the workspace is not synced, or the item
 * not here); read again after an action and whenever the pair's sync settles.
 */
export function useOnDevice(
  workspaceId: number,
  folderId: number,
  enabled: boolean,
  /** The folders above it (its trail); undefined until known. */
  above: number[] | undefined,
) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['items.onDevice', account.id, workspaceId, folderId, above?.join(',') ?? ''],
    queryFn: () =>
      api
        .call('items.onDevice', {
          accountId: account.id,
          workspaceId,
          folderId,
          above: above ?? [],
        })
        .then((r) => ({
          pairId: r.pairId,
          byItem: new Map(r.items.map((i) => [deviceKey(i.kind, i.id), i])),
          marks: { marks: r.marks, excluded: r.excluded, here: r.here },
        })),
    // Once the folders above are known (they say whether it is inside one left out).
    enabled: enabled && above !== undefined,
  });
  const pairId = query.data?.pairId;
  useEvent('pair-status', ({ pairId: changed, status }) => {
    if (changed === pairId && status.state === 'idle')
      void queryClient.invalidateQueries({ queryKey: ['items.onDevice', account.id] });
  });
  const byItem = query.data?.byItem;
  const marks = query.data?.marks;
  const device = useCallback(
    (item: { kind: string; id: number }): OnDevice | undefined =>
      byItem?.get(deviceKey(item.kind, item.id)),
    [byItem],
  );
  const badge = useCallback(
    (item: { kind: string; id: number }): Badge | undefined =>
      marks && badgeOf(item, byItem?.get(deviceKey(item.kind, item.id)), marks),
    [byItem, marks],
  );
  return { device, badge };
}

type Done = ResultOf<'items.onDemand'> & { op: OnDemandOp; target: SelectedItem };

/** An action on an item, sent to its pair's engine; the states are read again after it. */
export function useOnDemand(workspaceId: number) {
  const api = useApi();
  const account = useAccount();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ item, op }: { item: SelectedItem; op: OnDemandOp }): Promise<Done> => {
      const got = await api.call('items.onDemand', {
        accountId: account.id,
        workspaceId,
        kind: item.kind,
        itemId: item.id,
        op,
      });
      return { ...got, op, target: item };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['items.onDevice', account.id] }),
  });
}

/** What an action did (or does, while under way), in words; only what is true of it. */
export function onDemandOutcome(m: ReturnType<typeof useOnDemand>): string | null {
  if (m.isPending) {
    const { op, item } = m.variables;
    return op === 'download' || op === 'pin' ? strings.files.downloading(item.name) : null;
  }
  if (!m.isSuccess) return null;
  const { op, target, waiting } = m.data;
  const name = target.name;
  if (waiting) return strings.files.downloadWaits(name);
  switch (op) {
    case 'download':
      return strings.files.downloaded(name);
    case 'pin':
      return strings.files.kept(name);
    case 'unpin':
      return strings.files.unkept(name);
    case 'free':
      return strings.files.freed(name);
  }
}

/** The item panel's part: the state in words and the same actions as the item's menu. */
export function OnDeviceSection({
  item,
  device,
  onDemand,
  busy,
  children,
}: {
  item: SelectedItem;
  device: OnDevice;
  onDemand: (item: SelectedItem, op: OnDemandOp) => void;
  busy: boolean;
  /** What the last action said. */
  children?: ReactNode;
}) {
  const may = offers(device);
  const id = `on-device-${item.kind}-${item.id}`;
  // The box shows the choice while the engine applies it (a controlled box would flip back).
  // Until the action ends (its answer and the states read again: `busy`).
  const [want, setWant] = useState<boolean | null>(null);
  useEffect(() => {
    if (!busy) setWant(null);
  }, [busy]);
  const checked = want ?? may.pinned;
  return (
    <section className="panel-section on-device-section" aria-labelledby={id}>
      <h3 id={id}>{strings.files.onDevice.title}</h3>
      <p>
        <OnDeviceBadge device={device} text />
      </p>
      <div className="actions">
        <button
          type="button"
          disabled={busy || !may.download}
          onClick={() => onDemand(item, 'download')}
        >
          {strings.files.downloadNow}
        </button>
        <button
          type="button"
          disabled={busy || !may.free}
          aria-describedby={may.pinned ? `${id}-free` : undefined}
          onClick={() => onDemand(item, 'free')}
        >
          {strings.files.freeUp}
        </button>
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={checked}
          disabled={busy}
          onChange={(e) => {
            setWant(e.target.checked);
            onDemand(item, e.target.checked ? 'pin' : 'unpin');
          }}
        />
        {strings.files.alwaysKeep}
      </label>
      {may.pinned && (
        <p id={`${id}-free`} className="muted">
          {strings.files.freeUpPinned}
        </p>
      )}
      {children}
    </section>
  );
}

export type DeviceOf = ReturnType<typeof useOnDevice>['device'];
export type { State as OnDeviceState };
