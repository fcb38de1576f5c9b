package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.controller.FeatureControlManager.FeatureUpdate;
import io.kraft.storage.errors.Errors;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProducerIdAndFeatureControlManagerTest {
    private final ControllerTestEnv env = new ControllerTestEnv();

    @Test
    void producerIdBlocksNeverOverlap() {
        long epoch1 = env.startBroker(1, null);
        long epoch2 = env.startBroker(2, null);
        ProducerIdBlock first = env.commit(env.managers.allocateProducerIds(1, epoch1)).response();
        ProducerIdBlock second = env.commit(env.managers.allocateProducerIds(2, epoch2)).response();
        assertEquals(new ProducerIdBlock(1, 0, ProducerIdControlManager.BLOCK_SIZE), first);
        assertEquals(new ProducerIdBlock(2, 1000, ProducerIdControlManager.BLOCK_SIZE), second);
        assertEquals(1999, second.lastProducerId());
        assertEquals(2000, env.image.producerIds().nextProducerId());

        assertEquals(Errors.STALE_BROKER_EPOCH, env.managers.allocateProducerIds(1, epoch1 + 5).error().error());
        assertEquals(Errors.BROKER_ID_NOT_REGISTERED, env.managers.allocateProducerIds(9, 1).error().error());
    }

    @Test
    void featureLevelsStayWithinTheSupportedRange() {
        assertTrue(env.commit(env.managers.updateFeature("metadata.version", 2)).isSuccess());
        assertEquals(2, env.image.features().level("metadata.version"));
        assertEquals(Errors.INVALID_UPDATE_VERSION, env.managers.updateFeature("metadata.version", 4).error().error());
        assertEquals(Errors.INVALID_UPDATE_VERSION, env.managers.updateFeature("no.such.feature", 1).error().error());
        assertTrue(env.managers.updateFeature("metadata.version", 2).records().isEmpty());
        assertTrue(env.commit(env.managers.updateFeature("metadata.version", 0)).isSuccess());
        assertEquals(0, env.image.features().level("metadata.version"));
        assertEquals(env.image.features(), env.managers.features().image());
    }

    @Test
    void updateFeaturesAppliesAllOrNoneAndADowngradeOnlyWhenAskedFor() {
        FeatureControlManager features = env.managers.features();
        var up = features.updateFeatures(Map.of("metadata.version", new FeatureUpdate(3, false)), false);
        assertEquals(Map.of("metadata.version", ApiError.NONE), env.commit(up).response());
        assertEquals(3, env.image.features().level("metadata.version"));

        var notAsked = features.updateFeatures(Map.of("metadata.version", new FeatureUpdate(1, false)), false);
        assertEquals(Errors.INVALID_UPDATE_VERSION, notAsked.response().get("metadata.version").error());
        assertTrue(notAsked.records().isEmpty());

        var oneRefused = features.updateFeatures(Map.of("metadata.version", new FeatureUpdate(1, true),
                "no.such.feature", new FeatureUpdate(1, false)), false);
        assertTrue(oneRefused.response().get("metadata.version").isSuccess());
        assertEquals(Errors.INVALID_UPDATE_VERSION, oneRefused.response().get("no.such.feature").error());
        assertTrue(oneRefused.records().isEmpty(), "nothing applies when one is refused");

        assertTrue(features.updateFeatures(Map.of("metadata.version", new FeatureUpdate(1, true)), true).records()
                .isEmpty(), "validate only");
        env.commit(features.updateFeatures(Map.of("metadata.version", new FeatureUpdate(1, true)), false));
        assertEquals(1, env.image.features().level("metadata.version"));
    }
}
