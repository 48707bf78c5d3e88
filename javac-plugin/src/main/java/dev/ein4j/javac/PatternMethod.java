package dev.ein4j.javac;

import dev.ein4j.pattern.Operation;
import java.util.List;

/**
 * A method or constructor of ein4j that takes a pattern, identified by its owner's qualified name,
 * its name ({@code <init>} for a constructor) and its parameter types (erased), and what to check
 * in a call to it.
 *
 * @param owner the qualified name of the declaring class
 * @param name the method's name, {@code <init>} for a constructor
 * @param parameters the erased parameter types, e.g. {@code java.lang.String}, {@code dev.ein4j.tensor.Tensor[]}
 * @param rule which arguments are patterns and which rules apply
 */
record PatternMethod(String owner, String name, List<String> parameters, Rule rule) {

    /** What a call's constant arguments are checked against. */
    sealed interface Rule permits PatternRule, EinMixRule {
    }

    /**
     * One pattern argument, parsed and validated for one operation.
     *
     * @param pattern the index of the pattern argument
     * @param operation whose rules apply
     */
    record PatternRule(int pattern, Operation operation) implements Rule {
    }

    /**
     * The arguments of an {@code EinMix} constructor, checked as the layer checks them.
     *
     * @param pattern the index of the {@code left -> right} pattern
     * @param weightShape the index of the weight's axis names
     * @param biasShape the index of the bias's axis names, −1 when the constructor has none
     */
    record EinMixRule(int pattern, int weightShape, int biasShape) implements Rule {
    }
}
