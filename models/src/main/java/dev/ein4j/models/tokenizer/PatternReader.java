package dev.ein4j.models.tokenizer;


/** Reads a pattern of tokenizer.json: {@code {"String": "..."}} or {@code {"Regex": "..."}}. */
final class PatternReader {

    private PatternReader() {
    }

    /**
     * @param node the pattern object
     * @return the pattern
     * @throws TokenizerException if it is neither form or the expression does not compile
     */
    static TextPattern read(JsonNode node) {
        if (node.isObject() && node.has("String")) {
            return TextPattern.literal(node.require("String").asString());
        }
        if (node.isObject() && node.has("Regex")) {
            JsonNode regex = node.require("Regex");
            String expression = regex.asString();
            try {
                return TextPattern.regex(expression);
            } catch (IllegalArgumentException bad) { // PatternSyntaxException included
                throw regex.error(JsonNode.quote(expression) + " is not a regular expression this reader can use: "
                        + bad.getMessage().lines().findFirst().orElse(""));
            }
        }
        throw node.error("is not {\"String\": ...} or {\"Regex\": ...}");
    }
}
