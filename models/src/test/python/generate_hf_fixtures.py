"""Hugging Face model folders for the models module's tests.

Each case builds a small randomly initialized transformers model (seeded, nothing downloaded),
perturbs its biases, norms and running statistics so that every tensor affects the output, saves it
with save_pretrained (safetensors) into models/src/test/resources/hf/<name>/ and adds:

  input.npy            input_ids [b, t] (int32 or int64) or pixel_values [b, c, h, w] (float32)
  logits.npy           the head's logits in evaluation mode (float32)
  attention_mask.npy   (some language models) an int64 [b, t] mask with padding, and
  masked_logits.npy    the logits under that mask
  generation.json      (causal language models) greedy generate(do_sample=False) of seeded prompts, per case:
                       the prompt ids, max_new_tokens, the eos and pad ids it ran with, the returned sequences

generation.json is computed from the saved folder (from_pretrained in float32), so that

    python3 models/src/test/python/generate_hf_fixtures.py --generation-only [NAME ...]

adds it to existing folders without rewriting their weights.

Half-precision cases save float16/bfloat16 weights; their logits are computed in float32 from the
rounded weights, which is what a reader that widens them computes.

    python3 models/src/test/python/generate_hf_fixtures.py        (transformers 5.18.0, torch 2.13.0)
"""

import json
import os
import shutil
import sys

import numpy as np
import torch
import transformers
from transformers import (
    BertConfig, BertForMaskedLM, ConvNextConfig, ConvNextForImageClassification, GPT2Config, GPT2LMHeadModel,
    LlamaConfig, LlamaForCausalLM, MobileNetV2Config, MobileNetV2ForImageClassification, ResNetConfig,
    ResNetForImageClassification, ViTConfig, ViTForImageClassification)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "hf")
LABELS = {"id2label": {str(i): f"class_{i}" for i in range(5)}, "label2id": {f"class_{i}": i for i in range(5)}}


def tokens(vocab, batch=2, length=7, dtype=np.int64):
    return np.random.randint(0, vocab, size=(batch, length)).astype(dtype)


def left_padding(batch=2, length=7):
    mask = np.ones((batch, length), dtype=np.int64)
    mask[1, :3] = 0  # the second sequence is left-padded: its tokens attend past the padding
    return mask


def pixels(channels=3, height=32, width=32, batch=2):
    return np.random.randn(batch, channels, height, width).astype(np.float32)


CASES = [
    # ---------------------------------------------------------------- GPT-2
    dict(name="gpt2-tied-gelu-new", model=GPT2LMHeadModel, input=lambda: tokens(128), mask=True,
         config=GPT2Config(vocab_size=128, n_positions=16, n_embd=32, n_layer=2, n_head=4, initializer_range=0.2,
                           bos_token_id=0, eos_token_id=0)),
    dict(name="gpt2-untied-relu", model=GPT2LMHeadModel, input=lambda: tokens(100, dtype=np.int32),
         config=GPT2Config(vocab_size=100, n_positions=12, n_embd=32, n_layer=2, n_head=2, n_inner=48,
                           activation_function="relu", tie_word_embeddings=False, scale_attn_by_inverse_layer_idx=True,
                           layer_norm_epsilon=1e-3, initializer_range=0.2, bos_token_id=0, eos_token_id=0)),
    dict(name="gpt2-quick-gelu-unscaled", model=GPT2LMHeadModel, input=lambda: tokens(96, batch=1, length=9),
         config=GPT2Config(vocab_size=96, n_positions=10, n_embd=32, n_layer=1, n_head=4,
                           activation_function="quick_gelu", scale_attn_weights=False, add_cross_attention=True,
                           initializer_range=0.1, bos_token_id=0, eos_token_id=0)),
    # ---------------------------------------------------------------- Llama
    dict(name="llama-mha-tied-sharded", model=LlamaForCausalLM, input=lambda: tokens(128), mask=True, shard="40KB",
         config=LlamaConfig(vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                            num_attention_heads=4, tie_word_embeddings=True, initializer_range=0.2,
                            max_position_embeddings=64, bos_token_id=0, eos_token_id=1)),
    dict(name="llama-gqa-biases", model=LlamaForCausalLM, input=lambda: tokens(100, dtype=np.int32),
         config=LlamaConfig(vocab_size=100, hidden_size=32, intermediate_size=48, num_hidden_layers=2,
                            num_attention_heads=4, num_key_value_heads=2, attention_bias=True, mlp_bias=True,
                            rope_parameters={"rope_type": "default", "rope_theta": 500.0}, rms_norm_eps=1e-5,
                            hidden_act="gelu_pytorch_tanh", initializer_range=0.2, max_position_embeddings=64,
                            bos_token_id=0, eos_token_id=1)),
    dict(name="llama-mqa-head-dim-linear-rope", model=LlamaForCausalLM, input=lambda: tokens(100, length=9),
         config=LlamaConfig(vocab_size=100, hidden_size=32, intermediate_size=48, num_hidden_layers=2,
                            num_attention_heads=4, num_key_value_heads=1, head_dim=16,
                            rope_parameters={"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0},
                            initializer_range=0.2, max_position_embeddings=64, bos_token_id=0, eos_token_id=1)),
    dict(name="llama-llama3-rope-bf16", model=LlamaForCausalLM, input=lambda: tokens(100), half=torch.bfloat16,
         config=LlamaConfig(vocab_size=100, hidden_size=32, intermediate_size=48, num_hidden_layers=1,
                            num_attention_heads=2, num_key_value_heads=2,
                            rope_parameters={"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                             "high_freq_factor": 4.0, "original_max_position_embeddings": 64,
                                             "rope_theta": 10000.0},
                            initializer_range=0.2, max_position_embeddings=256, bos_token_id=0, eos_token_id=1)),
    # ---------------------------------------------------------------- BERT
    dict(name="bert-tied-gelu", model=BertForMaskedLM, input=lambda: tokens(120), mask="right",
         config=BertConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                           intermediate_size=64, max_position_embeddings=16, initializer_range=0.2)),
    dict(name="bert-untied-relu", model=BertForMaskedLM, input=lambda: tokens(100, dtype=np.int32),
         config=BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                           intermediate_size=48, max_position_embeddings=12, type_vocab_size=3, hidden_act="relu",
                           layer_norm_eps=1e-5, tie_word_embeddings=False, pad_token_id=1, initializer_range=0.2)),
    # ---------------------------------------------------------------- ViT
    dict(name="vit-qkv-bias", model=ViTForImageClassification, input=lambda: pixels(),
         config=ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                          image_size=32, patch_size=8, initializer_range=0.2, **LABELS)),
    dict(name="vit-no-qkv-bias-fp16", model=ViTForImageClassification, input=lambda: pixels(1, 16, 24),
         half=torch.float16,
         config=ViTConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=48,
                          image_size=[16, 24], patch_size=4, num_channels=1, qkv_bias=False, hidden_act="gelu_new",
                          layer_norm_eps=1e-6, initializer_range=0.2, id2label={"0": "a", "1": "b", "2": "c"},
                          label2id={"a": 0, "b": 1, "c": 2})),
    # ---------------------------------------------------------------- ResNet
    dict(name="resnet-basic", model=ResNetForImageClassification, input=lambda: pixels(),
         config=ResNetConfig(embedding_size=8, hidden_sizes=[8, 16], depths=[1, 2], layer_type="basic",
                             downsample_in_first_stage=True, **LABELS)),
    dict(name="resnet-bottleneck-gelu", model=ResNetForImageClassification, input=lambda: pixels(3, 35, 29),
         config=ResNetConfig(embedding_size=8, hidden_sizes=[16, 32], depths=[2, 1], layer_type="bottleneck",
                             downsample_in_bottleneck=True, hidden_act="gelu", **LABELS)),
    # ---------------------------------------------------------------- MobileNetV2
    dict(name="mobilenetv2-tf-padding-stride16", model=MobileNetV2ForImageClassification,
         input=lambda: pixels(3, 35, 33),
         config=MobileNetV2Config(depth_multiplier=0.1, min_depth=4, depth_divisible_by=4, image_size=35,
                                  output_stride=16, finegrained_output=False, **LABELS)),
    dict(name="mobilenetv2-torch-padding", model=MobileNetV2ForImageClassification, input=lambda: pixels(3, 32, 32),
         config=MobileNetV2Config(depth_multiplier=0.2, min_depth=4, depth_divisible_by=4, expand_ratio=3.0,
                                  tf_padding=False, first_layer_is_expansion=False, finegrained_output=False,
                                  layer_norm_eps=1e-5, **LABELS)),
    dict(name="mobilenetv2-finegrained-fp16", model=MobileNetV2ForImageClassification, input=lambda: pixels(3, 24, 24),
         half=torch.float16, config=MobileNetV2Config(depth_multiplier=0.1, min_depth=4, depth_divisible_by=4,
                                                     image_size=24, **LABELS)),
    # ---------------------------------------------------------------- ConvNeXt
    dict(name="convnext-layer-scale", model=ConvNextForImageClassification, input=lambda: pixels(),
         config=ConvNextConfig(hidden_sizes=[8, 16], depths=[1, 2], num_stages=2, layer_scale_init_value=0.5,
                               initializer_range=0.2, **LABELS)),
    dict(name="convnext-no-layer-scale-silu", model=ConvNextForImageClassification, input=lambda: pixels(3, 20, 20),
         config=ConvNextConfig(hidden_sizes=[8, 12, 16], depths=[1, 1, 1], num_stages=3, layer_scale_init_value=0.0,
                               patch_size=2, hidden_act="silu", layer_norm_eps=1e-6, drop_path_rate=0.1,
                               initializer_range=0.2, **LABELS)),
]


def perturb(model):
    """Biases, norm scales, layer scales and running statistics start at constants; make each matter."""
    with torch.no_grad():
        for name, tensor in model.state_dict().items():
            if not tensor.is_floating_point():
                continue
            if name.endswith("running_var"):
                tensor.uniform_(0.5, 1.5)
            elif name.endswith("running_mean"):
                tensor.normal_(0.0, 0.2)
            elif tensor.ndim == 1:
                tensor.add_(torch.randn_like(tensor) * 0.2)


def round_weights(model, dtype):
    """The checkpoint's tensors rounded to dtype, kept in float32 (not the rotary inv_freq, which is not saved)."""
    with torch.no_grad():
        for tensor in model.state_dict().values():
            if tensor.is_floating_point():
                tensor.copy_(tensor.to(dtype).to(torch.float32))


def logits_of(model, inputs, mask=None):
    with torch.no_grad():
        if inputs.dtype == np.float32:
            return model(pixel_values=torch.from_numpy(inputs)).logits.numpy()
        ids = torch.from_numpy(inputs.astype(np.int64))
        if mask is None:
            return model(input_ids=ids).logits.numpy()
        return model(input_ids=ids, attention_mask=torch.from_numpy(mask)).logits.numpy()


def generation_cases(folder, config, index):
    """Greedy generate() of a saved causal model: stopping at the config's eos, at none, at a token the
    second prompt reaches on its third step (so one sequence of the batch is padded), and one prompt alone."""
    model = transformers.AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32).eval()
    rng = np.random.default_rng(2000 + index)
    vocab = config.vocab_size
    positions = getattr(config, "n_positions", None) or 1 << 20
    prompts = rng.integers(0, vocab, size=(2, 4))
    new_tokens = min(8, positions - prompts.shape[1] + 1)  # the last token is never fed back: t + n - 1 positions

    def run(prompt, eos, pad, steps):
        model.generation_config.eos_token_id = eos
        model.generation_config.pad_token_id = pad
        with torch.no_grad():
            ids = torch.from_numpy(prompt).long()
            out = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=steps, do_sample=False)
        return dict(prompt=prompt.tolist(), max_new_tokens=steps,
                    eos_token_id=[] if eos is None else ([eos] if isinstance(eos, int) else list(eos)),
                    pad_token_id=pad, sequences=out.tolist())

    cases = []
    eos = config.eos_token_id
    cases.append(dict(name="config-eos", **run(prompts, eos, eos if isinstance(eos, int) else eos[0], new_tokens)))
    free = run(prompts, None, None, new_tokens)
    cases.append(dict(name="no-eos", **free))
    stop = free["sequences"][1][prompts.shape[1] + 2]
    pad = (stop + 1) % vocab
    cases.append(dict(name="stop-token", **run(prompts, [stop, (stop + 7) % vocab], pad, new_tokens)))
    single = rng.integers(0, vocab, size=(1, 3))
    cases.append(dict(name="single", **run(single, None, None, min(6, positions - 2))))
    with open(os.path.join(folder, "generation.json"), "w") as out:
        json.dump({"transformers": transformers.__version__, "torch": torch.__version__, "cases": cases}, out)
        out.write("\n")


def generate(case, index):
    torch.manual_seed(1000 + index)
    np.random.seed(1000 + index)
    model = case["model"](case["config"]).eval()
    perturb(model)
    half = case.get("half")
    if half is not None:
        round_weights(model, half)  # the reference sees the rounded weights
    inputs = case["input"]()
    folder = os.path.join(ROOT, case["name"])
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    np.save(os.path.join(folder, "input.npy"), inputs)
    np.save(os.path.join(folder, "logits.npy"), logits_of(model, inputs).astype(np.float32))
    if case.get("mask"):
        mask = left_padding(*inputs.shape) if case["mask"] is True else np.flip(left_padding(*inputs.shape), 1).copy()
        np.save(os.path.join(folder, "attention_mask.npy"), mask)
        np.save(os.path.join(folder, "masked_logits.npy"), logits_of(model, inputs, mask).astype(np.float32))
    saved = model.to(half) if half is not None else model
    kwargs = {"max_shard_size": case["shard"]} if "shard" in case else {}
    saved.save_pretrained(folder, safe_serialization=True, **kwargs)
    generation = os.path.join(folder, "generation_config.json")
    if os.path.exists(generation):
        os.remove(generation)  # text generation settings: not read by these tests
    if case["model"] in (GPT2LMHeadModel, LlamaForCausalLM):
        generation_cases(folder, case["config"], index)
    size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
    print(f"{case['name']:36s} {size / 1024:7.1f} KiB  {sorted(os.listdir(folder))}")


def main():
    only_generation = "--generation-only" in sys.argv[1:]
    names = set(sys.argv[1:]) - {"--generation-only"}
    print(f"transformers {transformers.__version__}, torch {torch.__version__}")
    for index, case in enumerate(CASES):
        if names and case["name"] not in names:
            continue
        if not only_generation:
            generate(case, index)
        elif case["model"] in (GPT2LMHeadModel, LlamaForCausalLM):
            generation_cases(os.path.join(ROOT, case["name"]), case["config"], index)
            print(f"{case['name']:36s} generation.json")


if __name__ == "__main__":
    main()
