# Transcribe a recorded call, then read the transcript back as speech.
# Needs speech_to_text and text_to_speech routes in aiython.toml, e.g.
#   [capabilities.speech_to_text]
#   model = "openai/gpt-4o-mini-transcribe"
#   [capabilities.text_to_speech]
#   model = "openai/gpt-4o-mini-tts"
#
#   aiython transcribe.py            (or: npm run demo -- examples/transcribe.py)
import os

transcript = transcribe media/call.wav
print("transcript:", transcript)

spoken = read the transcript back as speech, as a wav file
print("spoken:", os.path.relpath(spoken))
