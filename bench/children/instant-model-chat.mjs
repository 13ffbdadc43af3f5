/** The bare script's model behind `june ask`: a model chat (createChat({ model })), sessions in memory. */
import { createChat } from "june/chat";
import { scriptedModel } from "june/testing";

const model = scriptedModel(() => ({ text: Array.from({ length: 60 }, (_, i) => `word${i} `) }));

export default createChat({ model });
