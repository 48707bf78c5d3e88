/**
 * Models trained elsewhere, run as patterns: Hugging Face model folders (what
 * {@code save_pretrained} writes: {@code config.json}, safetensors weights, {@code tokenizer.json})
 * loaded into {@link dev.ein4j.nn.Module} trees whose parameter names match the checkpoint, one
 * sub-package per model family, and the tokenizers and generation loop that text models need.
 */
package dev.ein4j.models;
