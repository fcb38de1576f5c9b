package io.kraft.broker.protocol;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import io.kraft.generator.MessageSpec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/** One body under test: an API's request or response at one of its accepted versions. */
record ProtocolCase(ApiKey api, boolean request, short version) {

    /** Every API, request and response, every accepted version. */
    static List<ProtocolCase> all() {
        List<ProtocolCase> cases = new ArrayList<>();
        for (ApiKey api : ApiKey.values()) {
            for (boolean request : new boolean[] {true, false}) {
                for (short v = api.acceptedVersions().lowest(); v <= api.acceptedVersions().highest(); v++) {
                    cases.add(new ProtocolCase(api, request, v));
                }
            }
        }
        return cases;
    }

    /** One dynamic test per case (of those {@code which} selects), named after the case. */
    static Stream<DynamicTest> each(Predicate<ProtocolCase> which, Body body) {
        return all().stream().filter(which).map(c -> DynamicTest.dynamicTest(c.toString(), () -> body.run(c)));
    }

    static Stream<DynamicTest> each(Body body) {
        return each(c -> true, body);
    }

    @FunctionalInterface
    interface Body {
        void run(ProtocolCase c) throws Exception;
    }

    /**
     * ShareFetchResponse's records are non-nullable in Kafka's schema, yet Kafka's class defaults them to null (and
     * cannot write its own default); our generator wants a records field that defaults to null to be nullable. So
     * our spec says nullable, the handler never sends null, and the tests that would write or expect a null there
     * leave this body out.
     */
    boolean recordsNullableOnlyInOurSpec() {
        return api == ApiKey.SHARE_FETCH && !request;
    }

    /** "FetchRequest", the spec's and the generated class's name. */
    String messageName() {
        return api.apiName() + (request ? "Request" : "Response");
    }

    MessageSpec spec() {
        return Specs.named(messageName());
    }

    boolean flexible() {
        return api.isFlexible(version);
    }

    /** A random stream for this case and {@code test}, replayable with the seed. */
    Random random(String test) {
        return TestSeed.random(test + "/" + this);
    }

    /** A new generated body, every field at its default. */
    ApiMessage newMessage() {
        return request ? ApiMessageFactory.newRequest(api) : ApiMessageFactory.newResponse(api);
    }

    /** Reads our generated body at this version from the buffer's position, advancing it. */
    ApiMessage read(ByteBuffer in) {
        ApiMessage message = newMessage();
        message.read(in, version);
        return message;
    }

    /** "FetchRequest v15" plus the replay hint, for failure messages. */
    String where() {
        return this + TestSeed.replay();
    }

    @Override
    public String toString() {
        return messageName() + " v" + version;
    }
}
