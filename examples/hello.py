# A plain Python program: aiython runs it exactly as python3 would, and never calls a model.
import sys

print(f"hello from Python {sys.version_info.major}.{sys.version_info.minor}")
