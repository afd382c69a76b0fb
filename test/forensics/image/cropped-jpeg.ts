import { crop, PhotonImage } from "@cf-wasm/photon";
import { sharedFile } from "./fixtures";

/** A baseline JPEG (photon's encoder) of a w × h part of a photo (sizes that are not multiples of 8 or 16). */
export async function croppedJpeg(width: number, height: number): Promise<Uint8Array> {
  const image = PhotonImage.new_from_byteslice(await sharedFile("photos/opencv-doc/leuvenA.jpg"));
  const part = crop(image, 100, 100, 100 + width, 100 + height);
  try {
    return part.get_bytes_jpeg(90);
  } finally {
    part.free();
    image.free();
  }
}
