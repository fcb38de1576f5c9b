package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListenerSslHandlersTest {
    private static final int TLS_HEADER_BYTES = 5;

    @TempDir
    static Path dir;
    static SslContext server;

    @BeforeAll
    static void contexts() throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        server = SslContextFactory.server(SslSettings.forListener("SSL", Map.of(
                "ssl.keystore.type", "PKCS12",
                "ssl.keystore.location", certs.brokerKeyStore().toString(),
                "ssl.keystore.password", TestCertificates.PASSWORD)));
    }

    @Test
    void aChunkOfFetchedRecordsLeavesAsOneBufferOfFullTlsRecords() throws Exception {
        EmbeddedChannel broker = new EmbeddedChannel(ListenerSslHandlers.newHandler(server, ByteBufAllocator.DEFAULT));
        EmbeddedChannel client = new EmbeddedChannel(SslContextBuilder.forClient()
                .trustManager(InsecureTrustManagerFactory.INSTANCE).build().newHandler(ByteBufAllocator.DEFAULT));
        try {
            handshake(broker, client);
            // BoringSSL sends its session tickets with the first write: an answer before the records.
            broker.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
            drain(broker).forEach(client::writeInbound);
            ByteBuf answer = client.readInbound();
            assertEquals(1, answer.readableBytes());
            answer.release();
            byte[] chunk = new byte[SliceChunkedInput.CHUNK_BYTES];
            for (int i = 0; i < chunk.length; i++) {
                chunk[i] = (byte) i;
            }
            broker.writeAndFlush(Unpooled.wrappedBuffer(chunk));

            List<ByteBuf> written = drain(broker);
            // One buffer for the whole chunk (one wrap), holding the four 16 KiB records TLS allows.
            assertEquals(1, written.size());
            assertEquals(List.of(16384, 16384, 16384, 16384), plaintextSizes(written.get(0)));
            ByteBuf received = Unpooled.buffer();
            client.writeInbound(written.get(0));
            for (ByteBuf decrypted; (decrypted = client.readInbound()) != null; decrypted.release()) {
                received.writeBytes(decrypted);
            }
            assertEquals(Unpooled.wrappedBuffer(chunk), received);
            received.release();
        } finally {
            broker.finishAndReleaseAll();
            client.finishAndReleaseAll();
        }
    }

    private static void handshake(EmbeddedChannel broker, EmbeddedChannel client) {
        SslHandler tls = broker.pipeline().get(SslHandler.class);
        for (int round = 0; round < 10 && !tls.handshakeFuture().isDone(); round++) {
            drain(client).forEach(broker::writeInbound);
            broker.runPendingTasks();
            drain(broker).forEach(client::writeInbound);
            client.runPendingTasks();
        }
        drain(broker).forEach(client::writeInbound);
        assertTrue(tls.handshakeFuture().isSuccess(), "handshake");
    }

    private static List<ByteBuf> drain(EmbeddedChannel channel) {
        List<ByteBuf> out = new ArrayList<>();
        for (ByteBuf buf; (buf = channel.readOutbound()) != null; ) {
            out.add(buf);
        }
        return out;
    }

    /** The plaintext bytes of each TLS 1.3 record in {@code wire} (a record's length less its 17-byte trailer). */
    private static List<Integer> plaintextSizes(ByteBuf wire) {
        List<Integer> sizes = new ArrayList<>();
        for (int at = wire.readerIndex(); at < wire.writerIndex(); ) {
            int length = wire.getUnsignedShort(at + 3);
            sizes.add(length - 17);
            at += TLS_HEADER_BYTES + length;
        }
        return sizes;
    }
}
