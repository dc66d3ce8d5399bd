#!/usr/bin/env python3
"""DeepSpeed's pipeline TrainSchedule, timed two ways, for the MT-NLG rows (journal, issue 20).

DeepSpeed's TrainSchedule (deepspeed/runtime/pipe/schedule.py) runs 2 (m + p - 1) steps; in each
step a stage does one forward or one backward, even and odd stages in opposite phase, and opens
the step with blocking, paired exchanges with one neighbour (a forward step receives the
activation from and sends the previous gradient to the stage before; a backward step the mirror
image with the stage after). Timed here:
  pairwise: a step waits for its own previous step and for its partner's (the rendezvous the
            blocking pairs impose);
  barrier:  a step waits for both neighbours' previous steps, as if every step ended in a
            barrier (the schedule allows one; the engine does not place it).
Per-pass times are inputs (one stage's forward, and backward with recompute, per micro-batch);
every stage is given the same, so the logit layer on the last stage is left out.
Usage: deepspeed_schedule.py F B C [M ...]  (seconds; C: one exchange; M: micro-batches)
"""
import sys


def step_pass(k, s, p):
    """(micro-batch, forward?) of stage s at step k, as TrainSchedule._step_to_micro_batch."""
    if k % 2 == s % 2:
        base = k // 2 if k % 2 == 0 else (k - 1) // 2
        return base - s // 2, True
    if k % 2 == 0:
        return k // 2 - p + (s + 1) // 2, False
    return (k - 1) // 2 - p + 1 + s // 2, False


def run(p, m, f, b, c, barrier):
    end = [0.0] * p
    prev = [-1] * p
    for k in range(2 * (m + p - 1)):
        new = []
        for s in range(p):
            mb, fwd = step_pass(k, s, p)
            partner = s - 1 if fwd else s + 1
            exchanges = 0
            if 0 <= partner < p:
                exchanges = int(0 <= mb < m) + int(0 <= prev[s] < m)
            if barrier:
                start = max(end[max(s - 1, 0):s + 2])
            else:
                start = max(end[s], end[partner]) if exchanges else end[s]
            new.append(start + exchanges * c + ((f if fwd else b) if 0 <= mb < m else 0.0))
        prev = [step_pass(k, s, p)[0] for s in range(p)]
        end = new
    return max(end)


if __name__ == "__main__":
    f, b, c = (float(x) for x in sys.argv[1:4])
    for m in (int(x) for x in sys.argv[4:] or ["240", "192", "160"]):
        print("m %4d  1F1B dataflow %.2f s  pairwise %.2f s  barrier %.2f s" %
              (m, (m + 34) * (f + b) + 2 * 34 * c, run(35, m, f, b, c, False), run(35, m, f, b, c, True)))
