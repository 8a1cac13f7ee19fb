import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bulkCommand, quietCommand } from './commands';
import { HISTORIES } from './histories';
import { checkAtQuiescence } from './invariants';
import { replayHistory, runSoak } from './soak';
import { World, type Figures, type Sabotage } from './world';

// The command set before issue 37's steps: the sabotage's seed was picked for it.
const NO_NEW_STEPS = { swap: 0, recreate: 0, long: 0, deep: 0, ondemand: 0 };

// The soak on every CI run: 60 random histories from a fixed seed (so a failure replays), a
// crash case through its world and invariants, and proof that its histories catch a broken
// engine. Longer runs: `npm run -s soak -- --runs 2000` (docs/DEVELOPING.md).

const SEED = 20261123;

const POSIX = { flavor: 'posix', caseInsensitive: false, normalizationInsensitive: false } as const;

describe('soak', () => {
  /**
   * A new version sent, the answer in, and the process killed before the journal recorded it:
   * the restart must learn from the open intent that the version is its own.
   */
  async function crashAfterNewVersion(sabotage: Sabotage) {
    const figures: Figures = {
      histories: 0,
      operations: 0,
      crashes: 0,
      faults: 0,
      conflicts: 0,
      selections: 0,
      onDemand: 0,
      placeholders: 0,
      asked: 0,
    };
    const world = await World.create(
      { extensions: true, profileB: POSIX, sabotage, log: false },
      figures,
    );
    try {
      const [a] = world.clients;
      writeFileSync(a!.abs('report.txt'), world.ledger.write('disk A', 300));
      expect(await a!.sync()).not.toBeInstanceOf(Error);
      world.ledger.deleted(world.hashOnDisk(a!, 'report.txt'));
      writeFileSync(a!.abs('report.txt'), world.ledger.write('disk A', 400));
      await a!.sync({ step: 'answered', op: 'upload', nth: 1 });
      expect(figures.crashes).toBe(1);
      return await checkAtQuiescence(world);
    } finally {
      await world.dispose();
    }
  }

  const clean = { divergences: [], lost: [], duplicates: [] };

  it("a crash between a new version's answer and its record: all well after the restart", async () => {
    expect(await crashAfterNewVersion('none')).toEqual(clean);
  });

  it('the same with the intent check disabled: the restart adopts its own version by its bytes', async () => {
    // The outbox is not the only net: the restart's remote pass finds the same bytes on disk.
    // (So this sabotage goes unseen; the one below does not.)
    expect(await crashAfterNewVersion('no-intent-check')).toEqual(clean);
  });

  it(
    'a burst of 150 changes there, then a client left alone: each idle sync is one page of the feed',
    { timeout: 120_000 },
    async () => {
      // Real traffic: after a colleague's bulk upload, every later poll of an idle client read the
      // whole burst again (the feed's pages of 30 since the cursor's overlap window), for ever.
      const figures: Figures = {
        histories: 0,
        operations: 0,
        crashes: 0,
        faults: 0,
        conflicts: 0,
        selections: 0,
        onDemand: 0,
        placeholders: 0,
        asked: 0,
      };
      const world = await World.create(
        { extensions: true, profileB: POSIX, sabotage: 'none', log: false },
        figures,
      );
      try {
        const b = world.clients[1]!;
        expect(await b.sync()).not.toBeInstanceOf(Error);
        for (const step of [
          bulkCommand({ ops: 150, at: 0, targets: 2, existing: false, touch: 0 }),
          quietCommand(1, 3),
        ]) {
          await step.run(world.ledger, world);
        }
        expect(world.remoteEntries().length).toBe(150);
        expect(await checkAtQuiescence(world)).toEqual(clean);
      } finally {
        await world.dispose();
      }
    },
  );

  it(
    '60 random histories: the disks match the service, nothing lost, nothing twice',
    { timeout: 300_000 },
    async () => {
      // 60, not 100: the whole suite must stay within 10 minutes on a 2-core machine (issue 40);
      // these 60 crash, fault and conflict (4, 31 and 7 times). Longer runs by hand (above).
      const result = await runSoak({ runs: 60, seed: SEED, shrink: false });
      // On failure this shows the findings, the history and the line that replays it.
      expect(result.failure).toBeUndefined();
      expect(result.figures).toMatchObject({
        histories: 60,
        divergences: 0,
        lost: 0,
        duplicates: 0,
      });
      // The histories did what they are for.
      expect(result.figures.crashes).toBeGreaterThan(0);
      expect(result.figures.faults).toBeGreaterThan(0);
      expect(result.figures.conflicts).toBeGreaterThan(0);
    },
  );

  it(
    'catches a broken engine: downloads that overwrite local changes',
    { timeout: 120_000 },
    async () => {
      const result = await runSoak({
        runs: 50,
        seed: 4,
        sabotage: 'no-conflict-check',
        shrink: false,
        weights: NO_NEW_STEPS,
      });
      expect(result.failure?.findings).toMatch(/^lost: content .* is nowhere/m);
      expect(result.figures.lost).toBeGreaterThan(0);
    },
  );
});

describe('soak histories', () => {
  // The cases the soak found, written as its own steps (histories.ts), replayed through its world
  // and invariants; each history's own checks come out as divergences.
  it.each(HISTORIES.map((h) => [h.name, h] as const))(
    '%s',
    async (_name, h) => {
      const { findings, steps } = await replayHistory(h);
      expect(findings, `${h.title}\n${steps.join('\n')}`).toEqual({
        divergences: [],
        lost: [],
        duplicates: [],
      });
    },
    60_000,
  );
});
