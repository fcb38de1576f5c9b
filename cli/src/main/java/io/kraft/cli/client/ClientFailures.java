package io.kraft.cli.client;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns what a kafka-clients call threw into the one line a command prints after "Error: ". */
public final class ClientFailures {
    private ClientFailures() {
    }

    /** The innermost meaningful failure: the cause of an ExecutionException or CompletionException. */
    public static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof ExecutionException || current instanceof CompletionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** One line naming the problem: the failure's message, or its kind when it has none. */
    public static String message(Throwable failure) {
        Throwable cause = unwrap(failure);
        String message = cause.getMessage();
        if (message == null || message.isBlank()) {
            message = cause.getClass().getSimpleName();
        }
        // "Failed to create new KafkaAdminClient" says little without its reason.
        Throwable reason = cause.getCause();
        if (reason != null && reason.getMessage() != null && !message.contains(reason.getMessage())) {
            message = message + ": " + reason.getMessage();
        }
        return message.replace("\r", " ").replace("\n", " ");
    }
}
