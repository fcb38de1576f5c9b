package io.kraft.metadata.controller;

import io.kraft.storage.errors.ApiException;
import io.kraft.storage.errors.Errors;

/** A controller request that was rejected or could not commit, carrying the error to answer with. */
public final class ControllerException extends ApiException {
    private final ApiError apiError;

    public ControllerException(ApiError apiError) {
        super(apiError.error(), apiError.toString());
        this.apiError = apiError;
    }

    public ControllerException(Errors error, String message) {
        this(ApiError.of(error, message));
    }

    public ApiError apiError() {
        return apiError;
    }
}
