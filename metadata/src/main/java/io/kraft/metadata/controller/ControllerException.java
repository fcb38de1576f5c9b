package io.kraft.metadata.controller;

/** A controller request that was rejected or could not commit, carrying the error to answer with. */
public final class ControllerException extends RuntimeException {
    private final ApiError apiError;

    public ControllerException(ApiError apiError) {
        super(apiError.toString());
        this.apiError = apiError;
    }

    public ControllerException(Errors error, String message) {
        this(ApiError.of(error, message));
    }

    public Errors error() {
        return apiError.error();
    }

    public ApiError apiError() {
        return apiError;
    }
}
