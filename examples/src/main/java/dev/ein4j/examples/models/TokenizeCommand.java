package dev.ein4j.examples.models;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import dev.ein4j.error.EinopsException;
import dev.ein4j.models.tokenizer.Tokenizer;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code models tokenize DIR --input TEXTS.jsonl --output OUT.jsonl}: reads DIR/tokenizer.json (and
 * DIR may also be the tokenizer.json itself), then
 * for each line of TEXTS.jsonl (a JSON string; blank lines are skipped) writes one line
 * {@code {"ids": [...], "decoded": "..."}}, the ids being Hugging Face's {@code encode(text).ids}
 * (post-processor applied) and the text {@code decode(ids, skip_special_tokens=False)}.
 * A bad folder, file or line is one line on stderr and exit status 2.
 */
final class TokenizeCommand {

    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    private TokenizeCommand() {
    }

    /** An input file or line that cannot be used. */
    private static final class BadInput extends Exception {
        BadInput(String message) {
            super(message);
        }
    }

    /**
     * @param args DIR --input FILE --output FILE
     * @param err where the complaint goes
     * @return 0, or 2
     */
    static int run(String[] args, PrintStream err) {
        Path folder = null;
        Path input = null;
        Path output = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--input", "--output" -> {
                    if (i + 1 >= args.length) {
                        err.println("models tokenize: missing file after " + args[i]);
                        return 2;
                    }
                    if (args[i].equals("--input")) {
                        input = Path.of(args[++i]);
                    } else {
                        output = Path.of(args[++i]);
                    }
                }
                default -> {
                    if (folder != null || args[i].startsWith("--")) {
                        err.println("models tokenize: unexpected argument " + args[i]);
                        return 2;
                    }
                    folder = Path.of(args[i]);
                }
            }
        }
        if (folder == null || input == null || output == null) {
            err.println("usage: models tokenize DIR --input TEXTS.jsonl --output OUT.jsonl");
            return 2;
        }
        try {
            tokenize(folder, input, output);
            return 0;
        } catch (EinopsException | BadInput error) {
            err.println("models tokenize: " + error.getMessage());
        } catch (UncheckedIOException error) {
            err.println("models tokenize: cannot read " + error.getMessage() + " (" + error.getCause() + ")");
        } catch (IOException error) {
            err.println("models tokenize: " + error);
        }
        return 2;
    }

    private static void tokenize(Path folder, Path input, Path output) throws IOException, BadInput {
        Tokenizer tokenizer = Tokenizer.load(folder);
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(input),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)));
             BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(output), StandardCharsets.UTF_8))) {
            int number = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                String text = jsonString(line, input + ":" + number);
                int[] ids = tokenizer.encode(text);
                JsonObject result = new JsonObject();
                JsonArray idArray = new JsonArray(ids.length);
                for (int id : ids) {
                    idArray.add(id);
                }
                result.add("ids", idArray);
                result.add("decoded", new JsonPrimitive(tokenizer.decode(ids, false)));
                writer.write(GSON.toJson(result));
                writer.write('\n');
            }
        } catch (CharacterCodingException notUtf8) {
            throw new BadInput(input + " is not UTF-8 text");
        }
    }

    private static String jsonString(String line, String where) throws BadInput {
        try (JsonReader reader = new JsonReader(new StringReader(line))) {
            reader.setLenient(false);
            if (reader.peek() != JsonToken.STRING) {
                throw new BadInput(where + ": the line is not a JSON string");
            }
            String text = reader.nextString();
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new BadInput(where + ": the line has more than one JSON string");
            }
            return text;
        } catch (IOException | IllegalStateException malformed) {
            throw new BadInput(where + ": the line is not valid JSON (" + malformed.getMessage() + ")");
        }
    }
}
