/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/*
 * Content before git sha 34fdeebefcbf183ed7f916f931aa0586fdaa1b40
 * Copyright (c) 2012, The Gocql authors,
 * provided under the BSD-3-Clause License.
 * See the NOTICE file distributed with this work for additional information.
 */

package snappy

import (
	"fmt"

	"github.com/golang/snappy"
)

// SnappyCompressor implements the Compressor interface and can be used to
// compress incoming and outgoing frames. The snappy compression algorithm
// aims for very high speeds and reasonable compression.
type SnappyCompressor struct{}

func (s SnappyCompressor) Name() string {
	return "snappy"
}

// AppendCompressedWithLength appends to dst, as its name says: snappy's
// Encode writes from the start of its buffer.
func (s SnappyCompressor) AppendCompressedWithLength(dst, src []byte) ([]byte, error) {
	return append(dst, snappy.Encode(nil, src)...), nil
}

// maxFrameLength is the native protocol's largest frame body (256 MiB).
const maxFrameLength = 256 << 20

func (s SnappyCompressor) AppendDecompressedWithLength(dst, src []byte) ([]byte, error) {
	// The length is the peer's word: at most a frame's, so that a bad one
	// cannot make us allocate gigabytes.
	if n, err := snappy.DecodedLen(src); err != nil {
		return nil, err
	} else if n > maxFrameLength {
		return nil, fmt.Errorf("snappy block of %d bytes uncompressed, above the protocol's %d", n, maxFrameLength)
	}
	out, err := snappy.Decode(nil, src)
	if err != nil {
		return nil, err
	}
	return append(dst, out...), nil
}

func (s SnappyCompressor) AppendCompressed(dst, src []byte) ([]byte, error) {
	panic("SnappyCompressor.AppendCompressed is not supported")
}

func (s SnappyCompressor) AppendDecompressed(dst, src []byte, decompressedLength uint32) ([]byte, error) {
	panic("SnappyCompressor.AppendDecompressed is not supported")
}
