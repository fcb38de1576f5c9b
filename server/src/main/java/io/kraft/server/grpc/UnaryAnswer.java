package io.kraft.server.grpc;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;

/** Receives the one answer of a unary gRPC call into a future: its value, its error, or an error if none came. */
final class UnaryAnswer<R> implements StreamObserver<R> {
    private final CompletableFuture<R> response;

    UnaryAnswer(CompletableFuture<R> response) {
        this.response = response;
    }

    @Override
    public void onNext(R value) {
        response.complete(value);
    }

    @Override
    public void onError(Throwable t) {
        response.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
        if (!response.isDone()) {
            response.completeExceptionally(Status.INTERNAL.withDescription("the call ended without an answer")
                    .asRuntimeException());
        }
    }
}
