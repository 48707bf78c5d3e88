package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The register count that picks the micro-tile, and the 16-register tile's products. */
class VectorRegistersTest {

    @Test
    void inferredFromTheArchitectureAndTheSpeciesWidth() {
        assertThat(VectorRegisters.count("amd64", 512, null)).isEqualTo(32);
        assertThat(VectorRegisters.count("amd64", 256, null)).isEqualTo(16);
        assertThat(VectorRegisters.count("x86_64", 128, null)).isEqualTo(16);
        assertThat(VectorRegisters.count("aarch64", 128, null)).isEqualTo(32);
        assertThat(VectorRegisters.count("riscv64", 256, null)).isEqualTo(16);
        assertThat(VectorRegisters.count(null, 512, "")).isEqualTo(16);
    }

    @Test
    void theSystemPropertyForcesIt() {
        assertThat(VectorRegisters.count("amd64", 512, "16")).isEqualTo(16);
        assertThat(VectorRegisters.count("amd64", 256, " 32 ")).isEqualTo(32);
        assertThat(VectorRegisters.count("amd64", 512, "many")).isEqualTo(32);
    }

    @Test
    void theLargeTileNeeds29() {
        assertThat(VectorRegisters.fitsLargeTile(32)).isTrue();
        assertThat(VectorRegisters.fitsLargeTile(16)).isFalse();
    }

    @Test
    void theSmallTileKernelsMultiplyCorrectly() throws ReflectiveOperationException {
        Assumptions.assumeTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
                "the Vector API kernels need jdk.incubator.vector");
        FloatKernel floats = (FloatKernel) Class.forName("dev.ein4j.cpu.gemm.SmallTileVectorFloatKernel")
                .getDeclaredConstructor().newInstance();
        DoubleKernel doubles = (DoubleKernel) Class.forName("dev.ein4j.cpu.gemm.SmallTileVectorDoubleKernel")
                .getDeclaredConstructor().newInstance();
        assertThat(floats.mr()).isEqualTo(3);
        assertThat(doubles.mr()).isEqualTo(3);
        Random random = new Random(23);
        for (int[] size : new int[][] {{1, 1, 1}, {3, floats.nr(), 5}, {97, 61, 300}, {200, 130, 17}}) {
            for (Blocking blocking : new Blocking[] {new Blocking(3, floats.nr(), 3, floats.nr(), 1),
                Blocking.derive(3, floats.nr(), Float.BYTES, CacheSizes.FALLBACK).scaled(-1, -1, -1)}) {
                BlockingProducts.checkFloat(floats, blocking, size[0], size[1], size[2], random);
            }
            Blocking doubleBlocks = Blocking.derive(3, doubles.nr(), Double.BYTES, new CacheSizes(1024, 8192, 0));
            BlockingProducts.checkDouble(doubles, doubleBlocks, size[0], size[1], size[2], random);
        }
    }
}
