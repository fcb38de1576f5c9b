package io.kraft.raft.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The voter's gRPC server carries other services next to Raft, so one CONTROLLER listener serves the control plane. */
class ExtraServicesTest {
    private static final MethodDescriptor<String, String> ECHO = MethodDescriptor.<String, String>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("test.Echo", "Echo"))
            .setRequestMarshaller(new Utf8Marshaller())
            .setResponseMarshaller(new Utf8Marshaller())
            .build();

    @Test
    void servesExtraServicesOnTheRaftPort() throws InterruptedException {
        BindableService echo = () -> ServerServiceDefinition.builder("test.Echo")
                .addMethod(ECHO, ServerCalls.asyncUnaryCall((request, observer) -> {
                    observer.onNext("echo " + request);
                    observer.onCompleted();
                }))
                .build();
        GrpcRaftTransport transport = new GrpcRaftTransport(1, "cluster",
                Map.of(1, InetSocketAddress.createUnresolved("localhost", 1)), 0, 1_000, List.of(echo));
        transport.start(message -> { });
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", transport.port(),
                InsecureChannelCredentials.create()).build();
        try {
            String answer = ClientCalls.blockingUnaryCall(channel, ECHO,
                    CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "hello");
            assertEquals("echo hello", answer);
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            transport.close();
        }
    }

    @Test
    void refusesServicesWhenItServesNoPort() {
        BindableService none = () -> ServerServiceDefinition.builder("test.None").build();
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> new GrpcRaftTransport(2,
                "cluster", Map.of(1, InetSocketAddress.createUnresolved("localhost", 1)), -1, 1_000, List.of(none)));
        assertEquals("node 2 serves no port (listenPort -1) but was given 1 services to serve", error.getMessage());
    }

    /** Strings as UTF-8 bytes on the wire. */
    private static final class Utf8Marshaller implements MethodDescriptor.Marshaller<String> {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
