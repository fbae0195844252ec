// Admission order against arrival order (issue 30), from what a load generator can see: when it sent each arrival
// and when the answer came. Two arrivals are in a known order only when one was answered before the other was sent;
// those sent while another was in flight may have reached the server in either order, so they are not compared.

/** One arrival as the client saw it, and the position its place got (admission follows positions). */
export interface Arrival {
  sentAt: number;
  answeredAt: number;
  position: number;
}

export interface OrderFigures {
  arrivals: number;
  /** Pairs in a known arrival order (one answered before the other was sent). */
  orderedPairs: number;
  /** Of those, the share whose positions keep the arrival order: 1 for a queue, about 0.5 for a shuffle. */
  keptShare: number;
  /** Kendall's tau over those pairs (no ties: positions are distinct): 1 for a queue, about 0 for a shuffle. */
  kendallTau: number;
  /** Arrivals placed behind everyone known to have arrived before them: all of them for a queue. */
  inOrderShare: number;
}

/** Counts the pairs and arrivals in order; arrivals are sorted here by when they were sent. */
export function admissionOrder(arrivals: Arrival[]): OrderFigures {
  const sorted = [...arrivals].sort((a, b) => a.sentAt - b.sentAt);
  // Sent before each arrival: each answered before it was sent is before it; ordered by answer for the sweep.
  const byAnswer = [...sorted].sort((a, b) => a.answeredAt - b.answeredAt);
  let orderedPairs = 0;
  let kept = 0;
  let inOrder = 0;
  let answered = 0;
  let furthest = Number.NEGATIVE_INFINITY;
  for (const later of sorted) {
    while (answered < byAnswer.length && (byAnswer[answered] as Arrival).answeredAt < later.sentAt) {
      furthest = Math.max(furthest, (byAnswer[answered] as Arrival).position);
      answered++;
    }
    if (later.position > furthest) inOrder++;
    // The pairs: every arrival answered before this one was sent (quadratic, fine for 10,000 arrivals).
    for (let i = 0; i < answered; i++) {
      orderedPairs++;
      if ((byAnswer[i] as Arrival).position < later.position) kept++;
    }
  }
  const keptShare = orderedPairs ? kept / orderedPairs : Number.NaN;
  return {
    arrivals: arrivals.length,
    orderedPairs,
    keptShare,
    kendallTau: 2 * keptShare - 1,
    inOrderShare: arrivals.length ? inOrder / arrivals.length : Number.NaN,
  };
}

/** Whether `positions` are exactly 1..n, each once: nobody placed twice, nobody skipped. */
export function isGapless(positions: number[]): boolean {
  const sorted = [...positions].sort((a, b) => a - b);
  return sorted.every((position, index) => position === index + 1);
}
