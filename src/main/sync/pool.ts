/**
 * Runs tasks that may add more tasks, at most `concurrency` at a time, last in first out (a
 * walk then goes deep before wide, so the frontier it holds stays small). p-limit bounds a
 * fixed list; this queue grows while it drains, hence these few lines. Resolves when every
 * task has finished; the first error stops new tasks and is thrown.
 */
export async function drain<T>(
  initial: T[],
  concurrency: number,
  work: (item: T, push: (next: T) => void) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const stack = [...initial];
  let failure: { err: unknown } | null = null;
  let running = 0;
  await new Promise<void>((resolve) => {
    const pump = () => {
      if (failure || signal?.aborted) {
        if (running === 0) resolve();
        return;
      }
      while (stack.length > 0 && running < concurrency) {
        const item = stack.pop()!;
        running++;
        void work(item, (next) => stack.push(next)).then(
          () => {
            running--;
            pump();
          },
          (err: unknown) => {
            running--;
            failure ??= { err };
            pump();
          },
        );
      }
      if (running === 0 && stack.length === 0) resolve();
    };
    pump();
  });
  if (failure) throw (failure as { err: unknown }).err;
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}
