package io.kraft.generator;

import java.util.List;

/** Spec files the generator refuses; the message lists every problem, one per line. */
public final class GeneratorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    public GeneratorException(List<String> problems) {
        super(problems.size() + " problem(s) in message specs:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, each naming the spec file and, where it applies, the field. */
    public List<String> problems() {
        return problems;
    }
}
