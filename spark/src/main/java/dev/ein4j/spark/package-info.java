/**
 * Synchronous data-parallel training on Apache Spark: {@link dev.ein4j.spark.SparkTrainer} runs each
 * epoch as a barrier stage whose tasks hold model replicas, averages their gradients every step by a
 * ring all-reduce over sockets, checkpoints parameters and optimizer state each epoch (safetensors),
 * and runs a failed epoch again from the last checkpoint. Bad columns and rows are
 * {@link dev.ein4j.spark.RowFormatException}s, failed training a
 * {@link dev.ein4j.spark.SparkTrainingException}; no Spark exception reaches the caller unwrapped.
 * Only this module imports {@code org.apache.spark}.
 */
package dev.ein4j.spark;
