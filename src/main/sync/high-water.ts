/**
 * Counts bytes into the progress once however often they are reached: `reach(n)` counts what
 * lies past the highest point reached so far, up to `limit`. An upload tried again, or an
 * archive's bytes counted as they arrive and again as they are unpacked, never count twice.
 */
export function highWater(limit: number, count: (n: number) => void): (n: number) => void {
  let counted = 0;
  return (n) => {
    const add = Math.min(n, limit) - counted;
    if (add <= 0) return;
    counted += add;
    count(add);
  };
}
