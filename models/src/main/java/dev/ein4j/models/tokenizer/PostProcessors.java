package dev.ein4j.models.tokenizer;

import java.util.List;

/** The post-processors of a few lines each ({@link TemplateProcessing} has its own class). */
final class PostProcessors {

    private PostProcessors() {
    }

    /**
     * @param classifierId the id that starts the input ([CLS], &lt;s&gt;)
     * @param separatorId the id that ends it ([SEP], &lt;/s&gt;)
     * @return BertProcessing and RobertaProcessing (the same for one sequence)
     */
    static PostProcessor classifier(int classifierId, int separatorId) {
        return (ids, addSpecialTokens) -> {
            if (!addSpecialTokens) {
                return ids;
            }
            int[] out = new int[ids.length + 2];
            out[0] = classifierId;
            System.arraycopy(ids, 0, out, 1, ids.length);
            out[out.length - 1] = separatorId;
            return out;
        };
    }

    /** @return ByteLevel: only trims offsets in Hugging Face, so the ids stay as they are */
    static PostProcessor byteLevel() {
        return (ids, addSpecialTokens) -> ids;
    }

    /**
     * @param processors the post-processors, each given the output of the previous one
     * @return Sequence
     */
    static PostProcessor sequence(List<PostProcessor> processors) {
        List<PostProcessor> chain = List.copyOf(processors);
        return (ids, addSpecialTokens) -> {
            int[] out = ids;
            for (PostProcessor processor : chain) {
                out = processor.process(out, addSpecialTokens);
            }
            return out;
        };
    }
}
