"""Sampling fixtures for the models module's generation tests: transformers' logits warpers applied,
in generate()'s order (temperature, top-k, top-p), to seeded rows of logits.

Writes models/src/test/resources/generation/processors.json:

  {"logits": [[...], ...],                      float32 rows, some with repeated values
   "cases": [{"temperature": T, "top_k": K, "top_p": P,
              "kept": [[true, ...], ...],         the tokens whose score is not -inf
              "probabilities": [[...], ...]}]}    softmax of the warped scores (0 where removed)

K = 0 and P = 1 mean "not applied", as in GenerationConfig.

    python3 models/src/test/python/generate_generation_fixtures.py   (transformers 5.18.0, torch 2.13.0)
"""

import json
import os

import numpy as np
import torch
import transformers
from transformers.generation.logits_process import (LogitsProcessorList, TemperatureLogitsWarper, TopKLogitsWarper,
                                                    TopPLogitsWarper)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "generation", "processors.json")

CASES = [(0.7, 0, 1.0), (1.0, 5, 1.0), (1.0, 0, 0.8), (0.5, 10, 0.9), (1.3, 3, 0.5), (2.0, 0, 0.3), (1.0, 1, 1.0),
         (1.0, 40, 0.95), (0.9, 0, 0.05)]


def main():
    rng = np.random.default_rng(7)
    logits = (rng.standard_normal((5, 40)) * 2).astype(np.float32)
    logits[3, :8] = logits[3].max()  # a run of equal largest logits: top-k keeps every tie of the k-th
    logits[4] = np.round(logits[4])  # integers: many ties
    cases = []
    for temperature, top_k, top_p in CASES:
        warpers = LogitsProcessorList()
        if temperature != 1.0:
            warpers.append(TemperatureLogitsWarper(temperature))
        if top_k:
            warpers.append(TopKLogitsWarper(top_k=top_k))
        if top_p < 1.0:
            warpers.append(TopPLogitsWarper(top_p=top_p))
        scores = warpers(torch.zeros((5, 1), dtype=torch.long), torch.from_numpy(logits.copy()))
        cases.append(dict(temperature=temperature, top_k=top_k, top_p=top_p,
                          kept=torch.isfinite(scores).tolist(),
                          probabilities=torch.softmax(scores.double(), dim=-1).tolist()))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as out:
        json.dump({"transformers": transformers.__version__, "torch": torch.__version__, "logits": logits.tolist(),
                   "cases": cases}, out)
        out.write("\n")
    print(f"wrote {OUT}: {len(cases)} cases")


if __name__ == "__main__":
    main()
