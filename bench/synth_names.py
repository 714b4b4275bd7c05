"""Names of the people of a synthetic archive, as a field's real author lists have them.

``draw_names(count, rng)`` gives ``count`` names that are distinct authors for the build
(distinct ``author_key``: names that differ only in accents, case or punctuation are one
author), drawn from a mixture of naming traditions roughly as they occur in ML, vision,
language and robotics papers: many Chinese names in pinyin (one or two syllables, a few
hyphenated, a few written family name first: "Wang Yuan" beside "Yuan Wang"), Indian,
Korean, Japanese, Vietnamese, Iranian, Turkish, Arabic, Hebrew, African names, European
and American names with middle initials, accents (José, Müller, Łukasz, Nguyễn), particles
(van der Berg) and apostrophes (O'Brien); a few in their own script (张伟, Дмитрий Иванов).

Given and family names are drawn with a heavy head (Zipf over each list's order), so, as
in reality, many people share a family name or a given name ("Jun Fan", "Jun Wang",
"Yi Fan"), which is what makes search for a full name hard. Namesakes (two people with one
name) are made by ``synth_authors``, which may give one name to two people.
"""

from __future__ import annotations

import bisect
import itertools
import random
from dataclasses import dataclass

from generator.content.slugs import author_key


@dataclass(frozen=True)
class Name:
    given: str  # "" when the name is one field (``literal``)
    family: str
    literal: str = ""  # a name written as one field (another script): CSL's ``literal``

    @property
    def full(self) -> str:
        return self.literal or f"{self.given} {self.family}".strip()


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _list(text: str) -> tuple[str, ...]:  # comma-separated (names with spaces: "van der Berg")
    return tuple(part.strip() for part in text.split(",") if part.strip())


CN_SYLLABLES = _words(
    "Wei Jun Yu Yuan Hao Xin Jie Lei Jing Yang Fan Li Ming Hui Lin Tao Peng Bo Chen Yi Kai Jian Qiang Bin Feng "
    "Hong Yan Ying Xiao Zhi Han Rui Xu Heng Long Tian Meng Qi Xiang Dong Ning Song Wen Yong Zheng Ze Chao "
    "Cheng Dan Fei Jia Kun Liang Min Nan Qian Qing Shu Si Ting Xi Xue Yue Yun Zi Hang Huan Zhe Shuai Jiang Lu "
    "Hua Gang Guo Shan Zhen Sheng Chang Ye Mo Ran Rong Shuo Xuan Yao Yin Zhuo Xing Pei Lan Ke Di Kang Guang "
    "Quan Ao Hai Jin Ling Mu Sen Tong You Zhan Cong Duo")
CN_FAMILY = _words(
    "Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng Liang Xie Song "
    "Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong Pan Yuan Cai Jiang Yu Du Ye Cheng Wei Su Lu Ding Ren Shen "
    "Yao Cui Zhong Tan Fan Jin Shi Liao Jia Xia Fu Fang Zou Xiong Bai Meng Qin Qiu Hou Yin Xue Yan Duan Lei "
    "Long Tao Gu Mao Hao Gong Shao Wan Qian Dai Kong Xiang Mo Wen Chang Kang Qiao Lyu Lü Niu Ou Guan Zhan "
    "Ji Bao Geng Ning Yi")
KR_FIRST = _words("Min Seo Ji Hyun Jae Seung Dong Jin Sung Young Hye Soo Eun Joon Kyung Tae Sang Jun Ha Do Yeon Chan "
                  "Woo Hee Jung Yoon So Da Ye Na Yu Hyo Byung Chul")
KR_SECOND = _words("jun yeon hoon woo hyun min ho won jin ji soo seok bin eun young hee sung kyu wook jae ah rin hwan "
                   "yong il")
KR_FAMILY = _words("Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Oh Seo Shin Kwon Hwang Ahn Song Yoo Hong "
                   "Jeon Ko Moon Yang Son Bae Baek Heo Nam Noh Ha Kwak Sung Cha Joo Woo Min Ryu Na Jin")
JP_FIRST = _words("Hiro Taka Kazu Masa Yoshi Nori Tomo Aki Yuki Toshi Kei Shin Ken Dai Ryo Sho Yu Haru Nao Tatsu "
                  "Kō Shun Tetsu Mitsu Hide Sato Ma Sa Ka Yū")
JP_SECOND = _words("shi ki ya to hiko suke ta o nori aki ko mi ka na e hito yuki ru taro ji")
JP_FAMILY = _words("Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada "
                   "Sasaki Matsumoto Inoue Kimura Hayashi Shimizu Yamaguchi Mori Ikeda Hashimoto Ishikawa Ogawa "
                   "Fujita Okada Goto Hasegawa Murakami Kondo Ishii Sakamoto Endo Aoki Fujii Nishimura Fukuda Ota "
                   "Miura Takeuchi Nakajima Harada Ono Tamura Sugiyama Kawahara Matsuo Ōno Saitō")
IN_GIVEN = _words(
    "Aditya Rahul Priya Ankit Arjun Vikram Sanjay Deepak Anand Karthik Rohan Siddharth Abhishek Ananya Divya "
    "Neha Pooja Shreya Varun Nikhil Ravi Suresh Ramesh Harsh Aman Gaurav Manish Sachin Vivek Yash Akshay Kunal "
    "Mohit Pranav Rajesh Sandeep Tushar Aishwarya Kavya Meera Sneha Swati Tanvi Srinivas Venkatesh Lakshmi "
    "Arun Aravind Ashwin Balaji Chirag Dhruv Gautam Ishaan Jayant Kartik Madhav Naveen Prateek Raghav Sai "
    "Shubham Soumya Subhajit Sourav Tanmay Utkarsh")
IN_FAMILY = _words(
    "Sharma Kumar Singh Patel Gupta Agarwal Reddy Rao Iyer Nair Menon Mehta Shah Jain Verma Mishra Chatterjee "
    "Banerjee Mukherjee Das Ghosh Bose Sen Joshi Kulkarni Desai Pillai Krishnan Subramanian Srinivasan Raghavan "
    "Bhattacharya Chaudhary Malhotra Kapoor Saxena Pandey Tiwari Yadav Bhat Hegde Naik Goyal Bansal Aggarwal "
    "Chakraborty Dutta Roy Mandal Sinha Prasad Murthy Narayanan Ramachandran Venkataraman Gopalan Thakur")
VN_GIVEN = _words("Anh Minh Huy Trung Tuan Duc Khoa Thanh Long Quang Hoang Nam Phuc Thao Linh Hieu Dung Tam Vinh "
                  "Hai Son Tung Dat Khanh Hung Phong Nhat Bao Chau Lan Mai Ngoc Trang")
VN_MIDDLE = _words("Van Thi Minh Duc Quoc Thanh Ngoc Huu Xuan Hoang Dinh Cong Tuan Manh Gia")
VN_FAMILY = _words("Nguyen Tran Le Pham Hoang Phan Vu Dang Bui Do Ho Ngo Duong Ly Nguyễn Trần Lê Phạm Đặng")
EN_GIVEN = _words(
    "James John Robert Michael William David Richard Joseph Thomas Charles Christopher Daniel Matthew Anthony "
    "Mark Steven Andrew Joshua Kevin Brian George Timothy Ryan Jacob Nicholas Eric Jonathan Stephen Benjamin "
    "Samuel Gregory Alexander Patrick Jack Dennis Tyler Aaron Adam Nathan Zachary Peter Kyle Noah Ethan Jeremy "
    "Christian Sean Austin Dylan Jordan Jesse Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica "
    "Sarah Karen Lisa Nancy Sandra Margaret Ashley Emily Michelle Amanda Melissa Rebecca Laura Sharon Amy "
    "Angela Anna Ruth Nicole Katherine Samantha Christine Emma Rachel Catherine Heather Julia Olivia Grace "
    "Chloe Hannah Sophia Abigail Claire Lucy Alice Charlotte Zoe Natalie Victoria Leah Maya Ava Isabella Ella "
    "Sophie Eva Kate Jane Anne Helen Sam Max Ben Tom Ian Ross Neil Colin Graham Simon Oliver Harry Jamie Owen "
    "Liam Callum Finn Connor Aidan Percy Yann Geoffrey Leslie Marvin Judea")
EN_FAMILY = _list(
    "Smith, Johnson, Williams, Brown, Jones, Miller, Davis, Wilson, Anderson, Taylor, Thomas, Moore, Jackson, "
    "Martin, Thompson, White, Harris, Clark, Lewis, Robinson, Walker, Young, Allen, King, Wright, Scott, Hill, "
    "Green, Adams, Baker, Nelson, Carter, Mitchell, Roberts, Turner, Phillips, Campbell, Parker, Evans, Edwards, "
    "Collins, Stewart, Morris, Rogers, Reed, Cook, Morgan, Bell, Murphy, Bailey, Cooper, Richardson, Cox, "
    "Howard, Ward, Peterson, Gray, James, Watson, Brooks, Kelly, Sanders, Price, Bennett, Wood, Barnes, Ross, "
    "Henderson, Coleman, Jenkins, Perry, Powell, Long, Patterson, Hughes, Butler, Simmons, Foster, Bryant, "
    "Russell, Griffin, Hayes, Myers, Ford, Hamilton, Graham, Sullivan, Wallace, West, Cole, Reynolds, Marshall, "
    "Owens, Fisher, Ellis, Harrison, Gibson, McDonald, Murray, Freeman, Wells, Webb, Simpson, Stevens, Tucker, "
    "Porter, Hunter, Crawford, Boyd, Mason, Kennedy, Warren, Dixon, Burns, Gordon, Shaw, Holmes, Rice, "
    "Robertson, Hunt, Black, Daniels, Palmer, Mills, Nichols, Grant, Knight, Ferguson, Stone, Hawkins, Dunn, "
    "Hudson, Spencer, Gardner, Payne, Pierce, Berry, Matthews, Arnold, Willis, Watkins, Olson, Carroll, Duncan, "
    "Snyder, Hart, Cunningham, Bradley, Lane, Andrews, Harper, Fox, Riley, Armstrong, Carpenter, Weaver, Greene, "
    "Lawrence, Elliott, Sims, Austin, Peters, Franklin, Lawson, Fields, O'Brien, O'Connor, O'Neill, McCarthy, "
    "MacKay, Fitzgerald, LeCun, McAllester, Abbeel, Levine")
EU = {  # country -> (given names, family names)
    "german": (_words("Jürgen Jörg Matthias Stefan Andreas Bernhard Klaus Sebastian Tobias Lukas Maximilian Felix "
                      "Katharina Anja Sabine Lena Jonas Moritz Niklas Florian Johannes Julian Philipp Christoph Anna "
                      "Laura Julia Miriam Franziska"),
               _list("Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Schäfer, "
                     "Koch, Bauer, Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, "
                     "Hartmann, Lange, Werner, Krause, Lehmann, Köhler, Maier, Günther, Schölkopf, Seeger, Vogel, "
                     "Frank, Berger, Keller, Huber, Brandt, Haas, Sommer, Graf, Dietrich, Kühn, Pohl")),
    "french": (_words("François Jérôme Frédéric Stéphane Sébastien Hélène Amélie Léa Émilie Julien Nicolas Pierre "
                      "Antoine Guillaume Mathieu Olivier Thibault Gaël Loïc Cédric Benoît Étienne Camille Claire "
                      "Manon Chloé Théo Hugo Louis"),
               _list("Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent, "
                     "Lefèvre, Michel, Bertrand, Roux, Vincent, Fournier, Morel, Girard, Mercier, Dupont, Lambert, "
                     "Bonnet, Legrand, Garnier, Faure, Rousseau, Blanc, Guérin, Perrin, Morin, Clément, Gauthier, "
                     "Chevalier, Ménard, Prévost, Benoît, Lacroix, Fontaine, Dupuis, Lemaire, Renaud, Marchand")),
    "iberian": (_words("José María Jesús Ángel Álvaro Sebastián Andrés Joaquín Martín Lucía Sofía Inés Raúl Iñaki "
                       "Pablo Carlos Javier Diego Sergio Marta Elena Nuria João Gonçalo Rui Tiago Nuno Ana Beatriz"),
                _list("García, Fernández, González, Rodríguez, López, Martínez, Sánchez, Pérez, Gómez, Jiménez, Ruiz, "
                      "Hernández, Díaz, Moreno, Muñoz, Álvarez, Romero, Alonso, Gutiérrez, Navarro, Torres, "
                      "Domínguez, Vázquez, Ramos, Serrano, Molina, Ortega, Delgado, Castro, Núñez, Iglesias, Silva, "
                      "Santos, Oliveira, Souza, Pereira, Ferreira, Carvalho, Gonçalves, Ribeiro, Conceição, Costa")),
    "italian": (_words("Giuseppe Giovanni Francesco Alessandro Andrea Matteo Lorenzo Luca Marco Stefano Paolo Giulia "
                       "Chiara Francesca Simone Davide Federico Riccardo Elisa Martina Sara Valentina"),
                _list("Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo, "
                      "Conti, De Luca, Mancini, Costa, Giordano, Lombardi, Moretti, Barbieri, Fontana, Santoro, "
                      "Mariani, Rinaldi, Caruso, Ferrara, Galli, Martini, Leone, Longo, Gentile, Vitale")),
    "nordic-dutch": (_words("Søren Björn Åsa Jørgen Håkan Magnus Erik Lars Anders Nils Sigrid Ingrid Jan Pieter Willem "
                            "Joost Maarten Bart Sander Thijs Anouk Sanne Joris Wouter Mikko Antti Jussi Aino"),
                     _list("Andersen, Nielsen, Hansen, Jensen, Pedersen, Larsen, Johansson, Karlsson, Nilsson, "
                           "Eriksson, Lindqvist, Sjöberg, Åström, Öberg, Søndergaard, Ødegaard, Virtanen, Mäkinen, "
                           "Hämäläinen, Korhonen, van der Berg, de Vries, van Dijk, Bakker, Janssen, Visser, Smit, "
                           "Meijer, de Boer, Mulder, de Groot, Bos, Vos, Hendriks, van Leeuwen, Dekker, de Wit, "
                           "Dijkstra, van den Broek, Vermeulen, Maes, Claes, Willems")),
    "slavic": (_words("Łukasz Paweł Michał Wojciech Tomáš Jiří Petr Dmitry Sergey Alexey Ivan Nikolai Olga Anastasia "
                      "Ekaterina Andrey Mikhail Vladimir Marko Nikola Stefan Ana Katarzyna Agnieszka Zoltán Dániel "
                      "Mihai Ștefan Bogdan Andrei"),
               _list("Kowalski, Wiśniewski, Wójcik, Lewandowski, Nowak, Kamiński, Zieliński, Dvořák, Novák, Černý, "
                     "Svoboda, Procházka, Ivanov, Petrov, Smirnov, Kuznetsov, Popov, Sokolov, Volkov, Kozlov, "
                     "Novikov, Morozov, Vetrov, Kovačević, Jovanović, Horvat, Petrović, Nagy, Kovács, Szabó, Tóth, "
                     "Popescu, Ionescu, Dumitru, Stoica")),
}
ME_GIVEN = _words("Mohammad Ahmed Ali Hossein Reza Mehdi Amir Omar Yusuf Fatemeh Zahra Leila Mustafa Hamid Saeed "
                  "Mahdi Morteza Javad Hadi Mostafa Farzad Arash Babak Kaveh Pouya Sina Parisa Maryam Sara Niloufar "
                  "Shiva Hassan Khaled Karim Rami Tarek Youssef Layla Nour Rana Hiba Emre Çağlar Gökhan Ayşe Zeynep "
                  "Burak Mert Serkan Ipek Duygu Aysegul Oğuz Barış Elif Selin Cem Yossi Avi Shai Noam Tal Yael Lior "
                  "Amit Eran Uri Gal Kofi Kwame Ama Chinedu Ngozi Oluwaseun Tendai Thabo Amani Ifeoma Tunde Kelechi "
                  "Abebe Fikre Samuel Grace")
ME_FAMILY = _list(
    "Ahmadi, Hosseini, Mohammadi, Rezaei, Moradi, Karimi, Jafari, Rahimi, Hashemi, Sadeghi, Ghasemi, Kazemi, "
    "Mousavi, Abbasi, Heidari, Akbari, Nazari, Salehi, Asadi, Najafi, Shirazi, Tehrani, Rostami, Bagheri, Soltani, "
    "Zamani, Safari, Mahdavi, Ebrahimi, Al-Hassan, Haddad, Khalil, Mansour, Abdullah, Nasser, Saleh, Farouk, "
    "El-Sayed, Hamdan, Aziz, Yılmaz, Kaya, Demir, Şahin, Çelik, Yıldız, Aydın, Öztürk, Arslan, Doğan, Kılıç, "
    "Oztas, Ceylan, Dundar, Erdem, Koç, Kurt, Özdemir, Polat, Güler, Cohen, Levi, Mizrahi, Peretz, Friedman, "
    "Shamir, Katz, Biton, Avraham, Golan, Mensah, Boateng, Okafor, Adeyemi, Okonkwo, Mwangi, Otieno, Nkosi, "
    "Diallo, Traoré, Owusu, Asante, Eze, Nwosu, Balogun, Kamau, Tesfaye, Bekele, Haile, Moyo")
MIDDLE_INITIALS = tuple(f"{c}." for c in "ABCDEFGHJKLMNPRSTW")

CJK_FAMILY = tuple("王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗")
CJK_GIVEN = tuple("伟芳娜敏静丽强磊军洋勇艳杰涛明超霞平刚志远晓辉宇轩浩然佳欣鸣思文博俊峰")
OTHER_SCRIPTS = (
    (("山田", "佐藤", "鈴木", "高橋", "田中", "渡辺", "伊藤", "中村", "小林", "加藤"),
     ("太郎", "花子", "一郎", "健", "美咲", "翔", "大輔", "直樹", "裕子", "誠"), ""),
    (("김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"),
     ("민준", "서연", "지훈", "수빈", "하은", "현우", "지민", "도윤", "예은", "승현"), ""),
    (("Иванов", "Петров", "Смирнов", "Кузнецов", "Соколов", "Попов", "Лебедев", "Козлов", "Новиков", "Морозов"),
     ("Дмитрий", "Алексей", "Сергей", "Иван", "Михаил", "Андрей", "Николай", "Павел", "Егор", "Артём"), " "),
    (("Παπαδόπουλος", "Παπαγεωργίου", "Οικονόμου", "Γεωργίου", "Νικολάου", "Δημητρίου"),
     ("Γιώργος", "Νίκος", "Κώστας", "Ελένη", "Μαρία", "Δημήτρης"), " "),
    (("علي", "حسن", "خليل", "منصور", "سعيد", "عمر"), ("محمد", "أحمد", "عمر", "يوسف", "خالد", "فاطمة"), " "),
)

# (tradition, share of names) — roughly the authors of ML/CV/NLP/robotics venues.
MIXTURE = (("chinese", 0.37), ("english", 0.17), ("european-german", 0.035), ("european-french", 0.025),
           ("european-iberian", 0.025), ("european-italian", 0.02), ("european-nordic-dutch", 0.02),
           ("european-slavic", 0.025), ("indian", 0.10), ("korean", 0.06), ("japanese", 0.035),
           ("middle-east-africa", 0.055), ("vietnamese", 0.015), ("script", 0.004))
CHINESE_TWO_SYLLABLES = 0.7
CHINESE_HYPHENATED = 0.05  # "Xiao-Hui Li"
CHINESE_FAMILY_FIRST = 0.03  # written "Wang Yuan"
MIDDLE_INITIAL_RATE = {"english": 0.22, "indian": 0.05, "middle-east-africa": 0.05,
                       **{f"european-{country}": 0.08 for country in EU}}
RETRIES_BEFORE_INITIAL = 3  # a name taken this often is drawn again with a middle initial (or less common)
ZIPF_EXPONENT = 0.9  # popularity of the n-th entry of each list ~ 1 / n^0.9


class _Zipf:
    """Weighted choice from a list by a heavy-headed popularity of its order."""

    def __init__(self, items: tuple[str, ...], exponent: float = ZIPF_EXPONENT):
        self.items = items
        self.cum = list(itertools.accumulate(1.0 / (i + 1) ** exponent for i in range(len(items))))

    def __call__(self, rng: random.Random) -> str:
        return self.items[bisect.bisect(self.cum, rng.random() * self.cum[-1])]


_CN_SYL, _CN_FAM = _Zipf(CN_SYLLABLES), _Zipf(CN_FAMILY, 1.0)
_KR = (_Zipf(KR_FIRST, 0.6), _Zipf(KR_SECOND, 0.6), _Zipf(KR_FAMILY, 1.1))
_JP = (_Zipf(JP_FIRST, 0.6), _Zipf(JP_SECOND, 0.6), _Zipf(JP_FAMILY, 0.7))
_VN = (_Zipf(VN_GIVEN, 0.6), _Zipf(VN_MIDDLE, 0.6), _Zipf(VN_FAMILY, 1.2))
_POOLS = {
    "english": (_Zipf(EN_GIVEN, 0.6), _Zipf(EN_FAMILY, 0.6)),
    **{f"european-{country}": (_Zipf(given, 0.5), _Zipf(family, 0.5)) for country, (given, family) in EU.items()},
    "indian": (_Zipf(IN_GIVEN, 0.7), _Zipf(IN_FAMILY, 0.8)),
    "middle-east-africa": (_Zipf(ME_GIVEN, 0.5), _Zipf(ME_FAMILY, 0.5)),
}
_MIX_CUM = list(itertools.accumulate(share for _, share in MIXTURE))


def _tradition(rng: random.Random) -> str:
    return MIXTURE[bisect.bisect(_MIX_CUM, rng.random() * _MIX_CUM[-1])][0]


def draw_name(rng: random.Random, tradition: str | None = None, retry: int = 0) -> Name:
    """One name of ``tradition`` (drawn when None); not checked for distinctness. A ``retry``
    (the name drawn before was taken) flattens the popularity of the lists, and from
    ``RETRIES_BEFORE_INITIAL`` on adds a middle initial where the tradition writes them."""
    tradition = tradition or _tradition(rng)
    exponent = 1.0 if retry == 0 else 0.0  # a retry: every entry as likely

    def pick(z: _Zipf) -> str:
        return z(rng) if exponent else rng.choice(z.items)

    if tradition == "chinese":
        first = pick(_CN_SYL)
        if rng.random() < CHINESE_TWO_SYLLABLES or retry:
            second = pick(_CN_SYL).lower()
            given = f"{first}-{second}" if rng.random() < CHINESE_HYPHENATED else first + second
        else:
            given = first
        family = pick(_CN_FAM)
        if rng.random() < CHINESE_FAMILY_FIRST:
            given, family = family, given
        return Name(given, family)
    if tradition == "script":
        if rng.random() < 0.5:
            given = "".join(rng.choice(CJK_GIVEN) for _ in range(1 + (rng.random() < 0.6)))
            return Name("", "", rng.choice(CJK_FAMILY) + given)
        families, givens, space = rng.choice(OTHER_SCRIPTS)
        if space:
            return Name("", "", f"{rng.choice(givens)}{space}{rng.choice(families)}")
        return Name("", "", rng.choice(families) + rng.choice(givens))
    if tradition == "korean":
        first, second, family = (pick(z) for z in _KR)
        style = rng.random()
        given = f"{first}-{second}" if style < 0.45 else first + second if style < 0.85 else f"{first} {second.title()}"
        return Name(given, family)
    if tradition == "japanese":
        first, second, family = (pick(z) for z in _JP)
        return Name(first + second, family)
    if tradition == "vietnamese":
        given, middle, family = (pick(z) for z in _VN)
        return Name(f"{middle} {given}" if rng.random() < 0.4 or retry else given, family)
    given_of, family_of = _POOLS[tradition]
    given, family = pick(given_of), pick(family_of)
    initial_rate = 1.0 if retry >= RETRIES_BEFORE_INITIAL else MIDDLE_INITIAL_RATE.get(tradition, 0.0)
    if rng.random() < initial_rate:
        given = f"{given} {rng.choice(MIDDLE_INITIALS)}"
    return Name(given, family)


def draw_names(count: int, rng: random.Random) -> list[Name]:
    """``count`` names of distinct authors (distinct ``author_key``): a name already taken is
    drawn again in the same tradition (``draw_name``'s ``retry``), so that small pools
    (Vietnamese family names) keep their share."""
    names: list[Name] = []
    keys: set[str] = set()
    seen: set[str] = set()
    for _ in range(count):
        tradition = _tradition(rng)
        for retry in range(1000):
            name = draw_name(rng, tradition, retry)
            text = name.full
            if text in seen:
                continue
            seen.add(text)
            key = author_key(text)
            if key not in keys:
                keys.add(key)
                names.append(name)
                break
        else:  # pragma: no cover - the pools hold millions of names
            raise RuntimeError(f"the {tradition} name pool is exhausted")
    return names
