package io.kraft.broker.network;

import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A separate process that opens N connections to a port and holds them idle until its standard input closes,
 * so a test can hold 10,000 connections without needing 20,000 descriptors in one process.
 */
public final class IdleConnectionsClient {
    private IdleConnectionsClient() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        List<SocketChannel> open = new ArrayList<>(count);
        int failed = 0;
        for (int i = 0; i < count; i++) {
            try {
                open.add(SocketChannel.open(new InetSocketAddress("127.0.0.1", port)));
            } catch (java.io.IOException e) {
                failed++;
            }
        }
        System.out.println("opened " + open.size() + " failed " + failed);
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold the connections until the test closes our input
        }
        for (SocketChannel channel : open) {
            channel.close();
        }
    }
}
