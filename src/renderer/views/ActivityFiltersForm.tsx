import { Verb, type Workspace } from '../../shared/app-api';
import { strings } from '../strings';
import { DateField } from './DateField';

export interface FilterState {
  workspaceId: number | null;
  /** The user id of the person whose changes are shown, null for anyone. */
  actor: number | null;
  verbs: Verb[];
  othersOnly: boolean;
  /** The person's own downloads and views (their syncs' reading) shown; folded away when false. */
  showOwnReads: boolean;
  /** yyyy-mm-dd from the date inputs, '' when not set. */
  from: string;
  to: string;
}

export const noFilters: FilterState = {
  workspaceId: null,
  actor: null,
  verbs: [],
  othersOnly: false,
  showOwnReads: false,
  from: '',
  to: '',
};

/** Someone seen acting in the feed: the service filters by their user id. */
export interface Person {
  id: number;
  name: string;
}

/** How many filters differ from none: said beside a folded "Filters" button. */
export function filtersSet(f: FilterState): number {
  return (Object.keys(noFilters) as (keyof FilterState)[]).filter(
    (k) => JSON.stringify(f[k]) !== JSON.stringify(noFilters[k]),
  ).length;
}

export function ActivityFiltersForm({
  id,
  filters,
  onChange,
  workspaces,
  people,
}: {
  id: string;
  filters: FilterState;
  onChange: (f: FilterState) => void;
  workspaces: Workspace[];
  people: Person[];
}) {
  const set = (patch: Partial<FilterState>) => onChange({ ...filters, ...patch });
  return (
    <form
      id={id}
      className="filters"
      aria-label={strings.activity.filters}
      onSubmit={(e) => e.preventDefault()}
    >
      <div className="field inline">
        <label htmlFor="activity-workspace">{strings.activity.workspace}</label>
        <select
          id="activity-workspace"
          value={filters.workspaceId ?? ''}
          onChange={(e) => set({ workspaceId: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">{strings.activity.allWorkspaces}</option>
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field inline">
        <label htmlFor="activity-person">{strings.activity.person}</label>
        <select
          id="activity-person"
          value={filters.actor ?? ''}
          onChange={(e) => set({ actor: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">{strings.activity.anyone}</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="verbs">
        <legend>{strings.activity.verbs}</legend>
        {Verb.options.map((v) => (
          <label key={v} className="check">
            <input
              type="checkbox"
              checked={filters.verbs.includes(v)}
              onChange={(e) =>
                set({
                  verbs: e.target.checked
                    ? [...filters.verbs, v]
                    : filters.verbs.filter((x) => x !== v),
                })
              }
            />
            {strings.activity.verbNames[v]}
          </label>
        ))}
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={filters.othersOnly}
          onChange={(e) => set({ othersOnly: e.target.checked })}
        />
        {strings.activity.othersOnly}
      </label>
      <label className="check" title={strings.feed.ownReadsHint}>
        <input
          type="checkbox"
          checked={filters.showOwnReads}
          onChange={(e) => set({ showOwnReads: e.target.checked })}
        />
        {strings.feed.showOwnReads}
      </label>
      <DateField
        id="activity-from"
        label={strings.activity.from}
        value={filters.from}
        onChange={(from) => set({ from })}
      />
      <DateField
        id="activity-to"
        label={strings.activity.to}
        value={filters.to}
        onChange={(to) => set({ to })}
      />
      <button type="button" className="link-button" onClick={() => onChange(noFilters)}>
        {strings.activity.reset}
      </button>
    </form>
  );
}
