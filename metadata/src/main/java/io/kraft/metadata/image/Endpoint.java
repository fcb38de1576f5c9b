package io.kraft.metadata.image;

import io.kraft.proto.metadata.BrokerEndpoint;
import java.util.Objects;

/** A listener a broker advertises: name, host, port and Kafka security protocol name. */
public record Endpoint(String name, String host, int port, String securityProtocol) {
    public Endpoint {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(securityProtocol, "securityProtocol");
    }

    public static Endpoint fromProto(BrokerEndpoint endpoint) {
        return new Endpoint(endpoint.getName(), endpoint.getHost(), endpoint.getPort(), endpoint.getSecurityProtocol());
    }

    public BrokerEndpoint toProto() {
        return BrokerEndpoint.newBuilder().setName(name).setHost(host).setPort(port)
                .setSecurityProtocol(securityProtocol).build();
    }
}
