package io.kraft.broker.api.group;

import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiMessage;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** Small conversions the group handlers share. */
final class Requests {
    private Requests() {
    }

    /** The client's host as Kafka reports it in DescribeGroups: "/" and the IP address. */
    static String clientHost(RequestContext context) {
        SocketAddress address = context.clientAddress();
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return "/" + inet.getAddress().getHostAddress();
        }
        return address == null ? "" : address.toString();
    }

    static String clientId(ApiRequest<?> request) {
        String clientId = request.header().clientId();
        return clientId == null ? "" : clientId;
    }

    /**
     * A copy of bytes of the request body: those are views of the network buffer, which is released when the
     * handler returns, while the coordinator keeps member metadata and assignments for longer.
     */
    static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return new byte[0];
        }
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    /** The future's value turned into a response body. */
    static <T> CompletableFuture<HandlerResponse> respond(CompletableFuture<T> answer,
                                                         Function<T, ? extends ApiMessage> toBody) {
        return answer.thenApply(value -> HandlerResponse.of(toBody.apply(value)));
    }
}
