package io.kraft.broker.quota;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.RequestHeader;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ProduceRequest;
import io.kraft.broker.protocol.message.ProduceResponse;
import io.kraft.broker.security.KafkaPrincipal;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.quota.ClientQuotaEntity;
import io.kraft.proto.metadata.ClientQuotaRecord;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What client quotas cost a Produce answer on the request path: with no quota set (the test RequestChannel makes
 * before anything else), with quotas set but none for this client (a cached resolution), and for a client with a
 * quota (recording its bytes and measuring its rate; the quota is high enough never to throttle).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@Threads(1)
public class ClientQuotaBenchmark {
    private ClientQuotas none;
    private ClientQuotas some;
    private ApiRequest<ApiMessage> free;
    private ApiRequest<ApiMessage> limited;
    private ProduceResponse response;

    @Setup(Level.Trial)
    public void setUp() {
        none = new ClientQuotas(() -> MetadataImage.EMPTY.clientQuotas(), QuotaWindows.DEFAULT,
                System::currentTimeMillis, null);
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replay(MetadataRecords.of(ClientQuotaRecord.newBuilder()
                .addAllEntity(ClientQuotaEntity.clientId("limited").toRecord()).setKey("producer_byte_rate")
                .setValue(1e15).build()), 1, 1);
        MetadataImage image = delta.apply();
        some = new ClientQuotas(image::clientQuotas, QuotaWindows.DEFAULT, System::currentTimeMillis, null);
        free = produce("free");
        limited = produce("limited");
        response = new ProduceResponse();
    }

    private static ApiRequest<ApiMessage> produce(String clientId) {
        return new ApiRequest<>(new RequestHeader(ApiKey.PRODUCE.id(), (short) 9, 1, clientId, (short) 2),
                ApiKey.PRODUCE, new ProduceRequest());
    }

    @Benchmark
    public int noQuotaSet() {
        return none.active() ? none.throttle(free, 16_384, 50_000, KafkaPrincipal.ANONYMOUS, response) : 0;
    }

    @Benchmark
    public int clientWithoutQuota() {
        return some.active() ? some.throttle(free, 16_384, 50_000, KafkaPrincipal.ANONYMOUS, response) : 0;
    }

    @Benchmark
    public int clientWithQuota() {
        return some.active() ? some.throttle(limited, 16_384, 50_000, KafkaPrincipal.ANONYMOUS, response) : 0;
    }
}
