// Round trips in a row (decisions 0054, 0057): the database held 30 ms away by the local
// endpoint, so what goes out side by side overlaps and what waits does not.
import { tripsOf } from '#local/distance.ts';

/** How many database trips `run` made one after another. */
export async function inARow(databaseUrl: string, run: () => Promise<unknown>): Promise<number> {
  const trips = tripsOf(databaseUrl);
  await trips.setLatency(30);
  try {
    const mark = await trips.mark();
    await run();
    return (await trips.since(mark)).depth;
  } finally {
    await trips.setLatency(0);
  }
}
