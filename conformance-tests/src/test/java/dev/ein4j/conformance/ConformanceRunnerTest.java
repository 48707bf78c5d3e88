package dev.ein4j.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's contract: one line per failure, the closing count, the exit status. */
class ConformanceRunnerTest {

    @TempDir
    Path folder;

    private static final String PASSING = """
            {"id": "ok", "op": "rearrange", "pattern": "a b -> b a",
             "inputs": [{"shape": [2, 2], "dtype": "float64", "data": [1, 2, 3, 4]}],
             "expected": {"outputs": [{"shape": [2, 2], "dtype": "float64", "data": [1, 3, 2, 4]}]},
             "grad": {"upstream": [{"shape": [2, 2], "dtype": "float64", "data": [1, 0, 0, 0]}],
                      "inputs": [{"shape": [2, 2], "dtype": "float64", "data": [1, 0, 0, 0]}]}}""";

    private String file(String... cases) {
        return "{\"format\": \"ein4j-conformance/1\", \"generator\": \"test\", \"cases\": [" + String.join(",", cases) + "]}";
    }

    private record Outcome(int status, String output) {
    }

    private Outcome run(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = ConformanceRunner.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Outcome(status, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void passingFileEndsWithTheCountAndExitsZero() throws IOException {
        Path fixture = Files.writeString(folder.resolve("a.json"), file(PASSING));
        Outcome outcome = run("--backend", "reference", fixture.toString());
        assertThat(outcome.status()).isZero();
        assertThat(outcome.output().strip()).isEqualTo("1 passed, 0 failed");
    }

    @Test
    void wrongValueIsReportedWithFileAndId() throws IOException {
        String wrong = PASSING.replace("\"data\": [1, 3, 2, 4]", "\"data\": [1, 3, 2, 5]").replace("\"ok\"", "\"bad\"");
        Path fixture = Files.writeString(folder.resolve("b.json"), file(PASSING, wrong));
        Outcome outcome = run(fixture.toString());
        assertThat(outcome.status()).isEqualTo(1);
        assertThat(outcome.output()).contains("b.json:bad: output 0: element 3 is 4.0, expected 5.0");
        assertThat(outcome.output().strip()).endsWith("1 passed, 1 failed");
    }

    @Test
    void wrongGradientFailsUnlessGradientsAreIgnored() throws IOException {
        String wrong = PASSING.replace("\"inputs\": [{\"shape\": [2, 2], \"dtype\": \"float64\", \"data\": [1, 0, 0, 0]}]}",
                "\"inputs\": [{\"shape\": [2, 2], \"dtype\": \"float64\", \"data\": [0, 1, 0, 0]}]}");
        Path fixture = Files.writeString(folder.resolve("c.json"), file(wrong));
        assertThat(run(fixture.toString()).output()).contains("gradient of input 0").contains("0 passed, 1 failed");
        assertThat(run("--no-grad", fixture.toString()).status()).isZero();
    }

    @Test
    void errorCasesCheckTheKind() throws IOException {
        String syntax = """
                {"id": "s", "op": "rearrange", "pattern": "a (b -> a b",
                 "inputs": [{"shape": [2, 2], "dtype": "float32", "data": [1, 2, 3, 4]}], "expected": {"error": "syntax"}}""";
        String mislabelled = syntax.replace("\"s\"", "\"m\"").replace("\"syntax\"", "\"shape\"");
        Path fixture = Files.writeString(folder.resolve("d.json"), file(syntax, mislabelled));
        Outcome outcome = run(fixture.toString());
        assertThat(outcome.output()).contains("d.json:m: expected a shape error, got a syntax error").contains("1 passed, 1 failed");
    }

    @Test
    void unreadableCasesAndFilesAreFailuresNotSkips() throws IOException {
        Path broken = Files.writeString(folder.resolve("e.json"), file(PASSING, "{\"id\": \"no-op\"}"));
        Path notJson = Files.writeString(folder.resolve("f.json"), "not json");
        Outcome outcome = run(broken.toString(), notJson.toString(), folder.resolve("missing.json").toString());
        assertThat(outcome.status()).isEqualTo(1);
        assertThat(outcome.output()).contains("e.json:no-op: cannot read case").contains("f.json: cannot read fixture file")
                .contains("missing.json: no such file or folder").contains("1 passed, 3 failed");
    }

    private static final String TOPK = """
            {"id": "top", "op": "function", "name": "topk", "params": {"k": 2},
             "inputs": [{"shape": [3], "dtype": "float64", "data": [1, 3, 2]}],
             "expected": {"outputs": [{"shape": [2], "dtype": "float64", "data": [3, 2]},
                                      {"shape": [2], "dtype": "int32", "data": [1, 2]}]},
             "grad": {"upstream": [{"shape": [2], "dtype": "float64", "data": [5, 7]},
                                   {"shape": [2], "dtype": "int32", "data": [0, 0]}],
                      "inputs": [{"shape": [3], "dtype": "float64", "data": [0, 5, 7]}]}}""";

    @Test
    void everyOutputOfAFunctionIsComparedAndAnIntegerOutputsUpstreamAddsNothing() throws IOException {
        String wrongIndex = TOPK.replace("\"top\"", "\"wrong-index\"").replace("\"data\": [1, 2]}", "\"data\": [1, 0]}");
        String infinity = """
                {"id": "fill", "op": "function", "name": "masked_fill", "params": {"value": "-inf"},
                 "inputs": [{"shape": [2], "dtype": "float32", "data": [1, 2]}, {"shape": [2], "dtype": "bool", "data": [0, 1]}],
                 "expected": {"outputs": [{"shape": [2], "dtype": "float32", "data": [1, "-inf"]}]}}""";
        Path fixture = Files.writeString(folder.resolve("g.json"), file(TOPK, wrongIndex, infinity));
        Outcome outcome = run(fixture.toString());
        assertThat(outcome.output()).contains("g.json:wrong-index: output 1: element 1 is 2.0, expected 0.0")
                .contains("2 passed, 1 failed");
    }

    @Test
    void badCommandLinesExitTwo() {
        assertThat(run().status()).isEqualTo(2);
        assertThat(run("--backend", "no-such-backend", "x.json").status()).isEqualTo(2);
        assertThat(run("--frobnicate", "x.json").status()).isEqualTo(2);
    }
}
